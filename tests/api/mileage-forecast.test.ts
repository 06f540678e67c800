import { beforeAll, describe, expect, it } from "vitest";
import { devices } from "@/lib/db/schema";
import { MILEAGE_FORECAST_METHOD, PRIOR_RATE_KM_PER_DAY } from "@/lib/leasing/mileage-forecast";
import { helsinkiDayNumber, helsinkiTime } from "@/lib/seed/calendar";
import { mileageForecastSchema } from "@/lib/schemas/leasing-mileage";
import { createTenantWithKey } from "../helpers/fixtures";
import { DAY, iso, type Rec, useIngestApi, vinSequence } from "../helpers/ingest-api";

/**
 * Endpoint 19 end to end: a known odometer history pushed through POST /oem/ingest, read back over
 * HTTP. The history drives exactly 50 km a day for 60 days with one spike reading, so the forecast is
 * known: the latest reading + 50 km × the days to the lease's last day.
 */
const api = useIngestApi("Mileage tenant");
const nextVin = vinSequence("MILEAGETEST");
const NOW = Date.now();
const HISTORY_DAYS = 60;
const START_KM = 20_000;
const RATE = 50;
/** Readings at 18:00 Helsinki time, the last one yesterday (never in the future, one per Helsinki day across a DST change). */
const LAST_DAY = helsinkiDayNumber(NOW) - 1;
const FIRST_DAY = LAST_DAY - (HISTORY_DAYS - 1);
const readingTs = (i: number) => helsinkiTime(FIRST_DAY + i, 18 * 60);
/** The lease started on the history's first Helsinki day. */
const LEASE_START = new Date(FIRST_DAY * DAY).toISOString().slice(0, 10);

const vins = { known: nextVin(), noLease: nextVin(), oneDay: nextVin(), noStart: nextVin() };

function vehicle(master: Rec): Rec {
  return { make: "Kia", model: "EV6", powertrain: "BEV", ...master };
}

/**
 * One evening reading per day: START_KM + 50 km × day; on day 30 a +40,000 km glitch the next reading
 * falls back from, and on the last day a +9,000 km one.
 */
function history(vin: string, master: Rec, days = HISTORY_DAYS): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < days; i++) {
    const ts = readingTs(i);
    out.push({ vin, timestamp: iso(ts), speed_kmh: 0, odometer_km: START_KM + RATE * i, raw_data: { ignition: false, vehicle: vehicle(master) } });
    if (i === 30) out.push({ vin, timestamp: iso(ts + 30 * 60_000), speed_kmh: 0, odometer_km: START_KM + RATE * i + 40_000, raw_data: { ignition: false } });
    // On the last day a glitch at noon, before the evening reading: only the reading-level rule can tell
    // it from the day's level (no later day contradicts it).
    if (i === days - 1 && days > 1) out.push({ vin, timestamp: iso(ts - 6 * 3_600_000), speed_kmh: 0, odometer_km: START_KM + RATE * i + 9_000, raw_data: { ignition: false } });
  }
  return out;
}

/** The lease's last day (start + months − 1 day) as a Helsinki day number. */
function leaseLastDay(start: string, months: number): number {
  const [y, m, d] = start.split("-").map(Number) as [number, number, number];
  return Date.UTC(y, m - 1 + months, d) / DAY - 1;
}

const CURRENT_KM = START_KM + RATE * (HISTORY_DAYS - 1);

let other: Awaited<ReturnType<typeof createTenantWithKey>>;

beforeAll(async () => {
  await api.ingest([
    ...history(vins.known, { contract_km: 40_000, lease_start: LEASE_START, lease_months: 24 }),
    ...history(vins.noLease, { contract_km: 40_000, lease_start: LEASE_START }),
    ...history(vins.oneDay, { contract_km: 40_000, lease_start: LEASE_START, lease_months: 24 }, 1),
    ...history(vins.noStart, { lease_months: 12 }),
  ]);
  other = await createTenantWithKey(api.tdb.handle.db, { name: "Other mileage tenant" });
});

const get = (id: string, query = "", key?: string) => api.app.fetch(`/api/v1/predict/mileage/${id}${query}`, { key: key ?? api.t.key });

describe("GET /predict/mileage/{device_id}", () => {
  it("answers every SPEC 2.15 field with its type, and the known forecast", async () => {
    const res = await get(`oem-${vins.known}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    // SPEC 2.15 field by field.
    expect(body.device_id).toBe(`oem-${vins.known}`);
    expect(typeof body.current_km).toBe("number");
    expect(typeof body.predicted_end_km).toBe("number");
    expect(Number.isInteger(body.contract_km)).toBe(true);
    expect(typeof body.overage_km).toBe("number");
    expect(typeof body.risk_score).toBe("number");
    expect(body.risk_score).toBeGreaterThanOrEqual(0);
    expect(body.risk_score).toBeLessThanOrEqual(100);
    expect(body.confidence_interval).toEqual({ lower: expect.any(Number), upper: expect.any(Number) });
    expect(body.forecast_method).toBe(MILEAGE_FORECAST_METHOD);
    expect(["high", "medium", "low"]).toContain(body.data_quality);
    expect(body.generated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const f = mileageForecastSchema.parse(body);

    // The known truth: the spike did not count, 50 km a day to the lease's last day.
    const horizon = leaseLastDay(LEASE_START, 24) - LAST_DAY;
    expect(f.current_km).toBe(CURRENT_KM);
    expect(f.daily_rate_km).toBe(RATE);
    expect(f.horizon_days).toBe(horizon);
    expect(f.predicted_end_km).toBeCloseTo(CURRENT_KM + RATE * horizon, 1);
    expect(f.contract_km).toBe(40_000);
    expect(f.overage_km).toBeCloseTo(Math.max(0, f.predicted_end_km - 40_000), 1);
    expect(f.confidence_interval.lower).toBeLessThan(f.predicted_end_km);
    expect(f.confidence_interval.upper).toBeGreaterThan(f.predicted_end_km);
    expect(f.confidence_interval.lower).toBeGreaterThanOrEqual(f.current_km);
    // ~55,000 km expected against a 40,000 km limit: an overrun is near certain.
    expect(f.risk_score).toBeGreaterThan(95);
    expect(f.risk_basis).toBe("contract_km");
    expect(f.interval_level_pct).toBe(80);
    expect(f.contract).toMatchObject({
      contract_km_source: "master_data",
      lease_months: 24,
      lease_months_source: "master_data",
      lease_start: LEASE_START,
      lease_start_source: "master_data",
    });
    expect(f.limitations.join(" ")).toMatch(/2 one-sample spike/);
    // 60 days of daily readings: at least medium (high needs 90).
    expect(f.data_quality).toBe("medium");
    expect(f.forecast_basis).toBe("history");
  });

  it("query parameters win over master data", async () => {
    const res = await get(`oem-${vins.known}`, "?contract_km=200000&lease_months=12");
    expect(res.status).toBe(200);
    const f = mileageForecastSchema.parse(await res.json());
    const horizon = leaseLastDay(LEASE_START, 12) - LAST_DAY;
    expect(f.contract_km).toBe(200_000);
    expect(f.contract).toMatchObject({ contract_km_source: "query", lease_months: 12, lease_months_source: "query" });
    expect(f.predicted_end_km).toBeCloseTo(CURRENT_KM + RATE * horizon, 1);
    expect(f.overage_km).toBe(0);
    expect(f.risk_score).toBeLessThan(1);
  });

  it("a larger contract limit never raises the risk", async () => {
    const risks: number[] = [];
    for (const km of [30_000, 45_000, 50_000, 55_000, 60_000, 80_000]) {
      const f = mileageForecastSchema.parse(await (await get(`oem-${vins.known}`, `?contract_km=${km}`)).json());
      risks.push(f.risk_score);
    }
    expect(risks).toEqual([...risks].sort((a, b) => b - a));
    expect(risks[0]).toBeGreaterThan(99);
    expect(risks[risks.length - 1]).toBeLessThan(risks[0] as number);
  });

  it.each(["abc", "1.5", "-3", "0", "1e3", "", "99999999999"])("400 for %j as contract_km and as lease_months", async (bad) => {
    for (const param of ["contract_km", "lease_months"]) {
      const res = await get(`oem-${vins.known}`, `?${param}=${encodeURIComponent(bad)}`);
      expect(res.status, `${param}=${bad}`).toBe(400);
      const body = (await res.json()) as { error: string; details?: { field: string }[] };
      expect(body.error).toBe("invalid_request");
      expect(body.details?.map((d) => d.field)).toContain(param);
    }
  });

  it("404 for another tenant's device and for an unknown one (they look the same)", async () => {
    const foreign = await get(`oem-${vins.known}`, "", other.key);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: string }).error).toBe("not_found");
    const unknown = await get("no-such-device");
    expect(unknown.status).toBe(404);
  });

  it("without a lease duration: the odometer a year from today, said so; with lease_months from the query: the lease end", async () => {
    const f = mileageForecastSchema.parse(await (await get(`oem-${vins.noLease}`)).json());
    const today = helsinkiDayNumber(Date.now());
    expect(f.forecast_end_basis).toBe("default_horizon");
    expect(f.forecast_end).toBe(new Date((today + 365) * DAY).toISOString().slice(0, 10));
    expect(f.contract).toMatchObject({ lease_months: null, lease_months_source: null, lease_end: null });
    expect(f.predicted_end_km).toBeCloseTo(CURRENT_KM + RATE * (today + 365 - LAST_DAY), 1);
    expect(f.limitations[0]).toMatch(/No lease duration known/);
    const withQuery = mileageForecastSchema.parse(await (await get(`oem-${vins.noLease}`, "?lease_months=36")).json());
    expect(withQuery.forecast_end_basis).toBe("lease_end");
    expect(withQuery.forecast_end).toBe(withQuery.contract.lease_end);
  });

  it("readings on one day only: 200 from the population prior, data_quality low, not a made-up trend", async () => {
    const f = mileageForecastSchema.parse(await (await get(`oem-${vins.oneDay}`)).json());
    expect(f.forecast_basis).toBe("population_prior");
    expect(f.data_quality).toBe("low");
    expect(f.current_km).toBe(START_KM);
    expect(f.daily_rate_km).toBe(PRIOR_RATE_KM_PER_DAY);
    expect(f.limitations.join(" ")).toMatch(/one day only/);
  });

  it("a device without any odometer reading: 422, no invented current_km", async () => {
    await api.tdb.handle.db
      .insert(devices)
      .values({ tenantId: api.t.tenantId, deviceId: "no-odometer", name: "no-odometer", createdAt: new Date(FIRST_DAY * DAY + 12 * 3_600_000) });
    const res = await get("no-odometer", "?lease_months=12&contract_km=10000");
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: "unprocessable", message: expect.stringMatching(/no plausible odometer reading/) });
  });

  it("no contract limit and no lease_start: null overage, risk 0 with its basis, the lease starting on the first odometer day", async () => {
    const f = mileageForecastSchema.parse(await (await get(`oem-${vins.noStart}`)).json());
    expect(f.contract_km).toBeNull();
    expect(f.overage_km).toBeNull();
    expect(f.risk_score).toBe(0);
    expect(f.risk_basis).toBe("no_contract_limit");
    expect(f.contract).toMatchObject({ lease_start: LEASE_START, lease_start_source: "first_odometer_day", lease_months: 12 });
    expect(f.predicted_end_km).toBeCloseTo(CURRENT_KM + RATE * (leaseLastDay(LEASE_START, 12) - LAST_DAY), 1);
    expect(f.limitations.join(" ")).toMatch(/first day with an odometer reading/);
  });
});
