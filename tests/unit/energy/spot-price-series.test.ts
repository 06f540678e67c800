import { describe, expect, it } from "vitest";
import recordedDay from "@/data/spot-prices/fi-2024-02-21.json";
import { spotPricesAnswer } from "@/lib/energy/get-spot-prices";
import { RECORDED_DATE, RECORDED_FETCHED_AT, RECORDED_HOURS, RECORDED_SOURCE, RECORDED_VAT_RATE, recordedCentsWithVat, recordedSeries } from "@/lib/energy/recorded";
import { parsePorssisahko } from "@/lib/energy/sources/porssisahko";
import { UpstreamFetchError } from "@/lib/energy/sources/upstream-error";
import { FI_ELECTRICITY_VAT_RATE, fiElectricityVatRateOn, round3, withAndWithoutVat } from "@/lib/energy/vat";
import { spotPricesSchema } from "@/lib/schemas/energy";
import { helsinkiDayNumber, helsinkiTime } from "@/lib/seed/calendar";

const Q = 15 * 60_000;
const H = 60 * 60_000;
const slot = (startIso: string, len: number, price: number) => ({ price, startDate: startIso, endDate: new Date(Date.parse(startIso) + len).toISOString() });

describe("parsePorssisahko (porssisahko.net v2 latest-prices.json)", () => {
  it("sorts the newest-first source series oldest first and keeps 15-minute slots as PT15M", () => {
    const s = parsePorssisahko({ prices: [slot("2026-01-15T10:15:00.000Z", Q, 4.5), slot("2026-01-15T10:00:00.000Z", Q, 3.25)] });
    expect(s).toEqual({
      source: "porssisahko.net",
      resolution: "PT15M",
      points: [
        { startMs: Date.parse("2026-01-15T10:00:00Z"), endMs: Date.parse("2026-01-15T10:15:00Z"), priceWithVat: 3.25 },
        { startMs: Date.parse("2026-01-15T10:15:00Z"), endMs: Date.parse("2026-01-15T10:30:00Z"), priceWithVat: 4.5 },
      ],
    });
  });

  it("hour-long slots are PT60M, and a duplicated start is served once", () => {
    const s = parsePorssisahko({ prices: [slot("2025-09-01T10:00:00Z", H, 2), slot("2025-09-01T09:00:00Z", H, 1), slot("2025-09-01T09:00:00Z", H, 1)] });
    expect(s.resolution).toBe("PT60M");
    expect(s.points.map((p) => p.priceWithVat)).toEqual([1, 2]);
  });

  it.each([
    ["not an object", "nope", "malformed"],
    ["prices missing", {}, "malformed"],
    ["a price as a string", { prices: [{ price: "1.2", startDate: "2026-01-15T10:00:00Z", endDate: "2026-01-15T10:15:00Z" }] }, "malformed"],
    ["a date that is not a date", { prices: [{ price: 1.2, startDate: "yesterday", endDate: "2026-01-15T10:15:00Z" }] }, "malformed"],
    ["mixed slot lengths", { prices: [slot("2026-01-15T10:00:00Z", Q, 1), slot("2026-01-15T11:00:00Z", H, 1)] }, "malformed"],
    ["an empty series", { prices: [] }, "empty"],
  ])("refuses %s", (_name, body, reason) => {
    expect(() => parsePorssisahko(body)).toThrow(UpstreamFetchError);
    try {
      parsePorssisahko(body);
    } catch (err) {
      expect((err as UpstreamFetchError).reason).toBe(reason);
    }
  });
});

describe("VAT", () => {
  it("is 25.5 % today and the without-VAT figure is the with-VAT one / 1.255, to 3 decimals", () => {
    expect(FI_ELECTRICITY_VAT_RATE).toBe(0.255);
    expect(withAndWithoutVat(12.55)).toEqual({ with_vat: 12.55, without_vat: 10 });
    expect(withAndWithoutVat(-0.251)).toEqual({ with_vat: -0.251, without_vat: -0.2 });
    expect(withAndWithoutVat(1)).toEqual({ with_vat: 1, without_vat: 0.797 });
  });

  it("a past day's price is split at that day's rate", () => {
    expect(withAndWithoutVat(12.4, 0.24)).toEqual({ with_vat: 12.4, without_vat: 10 });
  });

  it("the rate in force on a delivery day: 24 % until 31 Aug 2024, 25.5 % from 1 Sep 2024, 10 % in the winter 2022/23 cut", () => {
    expect(fiElectricityVatRateOn("2024-02-21")).toBe(0.24);
    expect(fiElectricityVatRateOn("2024-08-31")).toBe(0.24);
    expect(fiElectricityVatRateOn("2024-09-01")).toBe(0.255);
    expect(fiElectricityVatRateOn("2026-11-24")).toBe(FI_ELECTRICITY_VAT_RATE);
    expect(fiElectricityVatRateOn("2022-11-30")).toBe(0.24);
    expect(fiElectricityVatRateOn("2022-12-01")).toBe(0.1);
    expect(fiElectricityVatRateOn("2023-04-30")).toBe(0.1);
    expect(fiElectricityVatRateOn("2023-05-01")).toBe(0.24);
    expect(() => fiElectricityVatRateOn("2012-12-31")).toThrow(RangeError);
    expect(() => fiElectricityVatRateOn("21.2.2024")).toThrow(RangeError);
  });
});

describe("recordedSeries (the offline day, as it was)", () => {
  it("keeps the 24 recorded hours at their own times on 21 Feb 2024 (Helsinki), never moved onto today", () => {
    const s = recordedSeries();
    expect(s.source).toBe("recorded:2024-02-21");
    expect(s.resolution).toBe("PT60M");
    expect(s.points).toHaveLength(24);
    expect(new Date(s.points[0]!.startMs).toISOString()).toBe("2024-02-20T22:00:00.000Z"); // 00:00 Helsinki (EET)
    expect(new Date(s.points[23]!.endMs).toISOString()).toBe("2024-02-21T22:00:00.000Z"); // 24:00 Helsinki
    expect(s.points.map((p) => p.priceWithVat)).toEqual(RECORDED_HOURS.map((h) => h.priceWithVat));
    const day = helsinkiDayNumber(Date.parse("2024-02-21T12:00:00Z"));
    for (const p of s.points) expect(helsinkiDayNumber(p.startMs)).toBe(day);
  });

  it("the recorded day is 24 distinct Helsinki hours of 21 Feb 2024, each at the UTC hour ENTSO-E gave it", () => {
    expect(RECORDED_DATE).toBe("2024-02-21");
    expect(RECORDED_SOURCE).toBe(`recorded:${recordedDay.date}`);
    expect(RECORDED_HOURS.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    // The file's UTC starts are the Helsinki wall-clock hours of that day (EET, UTC+2): hour 0 is the
    // last hour of the CET delivery day 2024-02-20, not a fill.
    const day = helsinkiDayNumber(Date.parse(`${recordedDay.date}T12:00:00Z`));
    for (const p of recordedDay.points) expect(Date.parse(p.utc_start)).toBe(helsinkiTime(day, p.hour * 60));
    expect(RECORDED_HOURS.map((h) => h.startMs)).toEqual(recordedDay.points.map((p) => helsinkiTime(day, p.hour * 60)));
  });

  it("each served figure is the source's EUR/MWh without VAT in c/kWh with the 24 % VAT of 21 Feb 2024", () => {
    expect(RECORDED_VAT_RATE).toBe(0.24);
    expect(recordedDay.vat_rate_pct).toBe(RECORDED_VAT_RATE * 100);
    for (const p of recordedDay.points) {
      expect(p.price_cents_kwh_with_vat).toBe(round3((p.eur_mwh_without_vat / 10) * 1.24));
      expect(recordedCentsWithVat(p.eur_mwh_without_vat)).toBe(p.price_cents_kwh_with_vat);
    }
    expect(RECORDED_HOURS.map((h) => h.priceWithVat)).toEqual(recordedDay.points.map((p) => p.price_cents_kwh_with_vat));
    // Spot checks against the cited ENTSO-E document (data/spot-prices/README.md): first and dearest hour.
    expect([recordedDay.points[0]!.eur_mwh_without_vat, recordedDay.points[10]!.eur_mwh_without_vat]).toEqual([36.01, 56.18]);
    expect([recordedDay.points[0]!.price_cents_kwh_with_vat, recordedDay.points[10]!.price_cents_kwh_with_vat]).toEqual([4.465, 6.966]);
  });

  it("fetched_at is when ENTSO-E answered the recorded document", () => {
    expect(RECORDED_FETCHED_AT.toISOString()).toBe("2024-02-21T06:43:15.000Z");
  });
});

describe("spotPricesAnswer", () => {
  const series = {
    source: "porssisahko.net",
    resolution: "PT15M" as const,
    points: [{ startMs: Date.parse("2026-01-15T10:00:00Z"), endMs: Date.parse("2026-01-15T10:15:00Z"), priceWithVat: 12.55 }],
  };

  it("answers SPEC 2.12 plus the VAT split, valid for the output schema", () => {
    const a = spotPricesAnswer(series, { cached: true, fetchedAt: new Date("2026-01-15T09:58:00Z"), staleSince: null });
    expect(spotPricesSchema.parse(a)).toEqual({
      market: "FI",
      source: "porssisahko.net",
      cached: true,
      fetched_at: "2026-01-15T09:58:00.000Z",
      stale: false,
      stale_since: null,
      resolution: "PT15M",
      vat_rate_pct: 25.5,
      prices: [{ start: "2026-01-15T10:00:00.000Z", end: "2026-01-15T10:15:00.000Z", price_cents_kwh: 12.55, price_cents_kwh_with_vat: 12.55, price_cents_kwh_without_vat: 10 }],
    });
  });

  it("states and splits at the VAT rate it is given (the recorded day's 24 %)", () => {
    const a = spotPricesAnswer(
      { ...series, points: [{ ...series.points[0]!, priceWithVat: 12.4 }] },
      { cached: false, fetchedAt: new Date("2024-02-21T06:43:15Z"), staleSince: new Date("2024-02-21T06:58:15Z"), vatRate: 0.24 },
    );
    expect(a.vat_rate_pct).toBe(24);
    expect(a.prices[0]).toMatchObject({ price_cents_kwh: 12.4, price_cents_kwh_without_vat: 10 });
  });

  it("is stale exactly when a stale_since is given", () => {
    const a = spotPricesAnswer(series, { cached: true, fetchedAt: new Date("2026-01-15T09:00:00Z"), staleSince: new Date("2026-01-15T09:15:00Z") });
    expect(a).toMatchObject({ stale: true, stale_since: "2026-01-15T09:15:00.000Z" });
  });
});
