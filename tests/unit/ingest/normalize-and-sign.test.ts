import { createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { InvalidSignatureError } from "@/lib/errors";
import { groupByDevice, masterUpdateFor, toTelemetryRecords } from "@/lib/ingest/normalize-records";
import { hmacHex, verifyIngestSignature } from "@/lib/ingest/verify-signature";
import { ingestBodySchema } from "@/lib/schemas/ingest";

const received = new Date("2026-11-21T12:00:00Z");
const records = (vehicles: unknown[]) => toTelemetryRecords(ingestBodySchema.parse({ vehicles }), received);

describe("toTelemetryRecords", () => {
  it("maps SPEC fields and CONTRACT defaults", () => {
    const [r] = records([
      { vin: "ABC123", speed_kmh: 12, charging_status: "CHARGING", dtc_codes: ["p0420", "P0420"], raw_data: { ambient_temp_c: -7.5, ignition: false, charging_power_kw: 11 } },
    ]);
    expect(r).toMatchObject({
      deviceId: "oem-ABC123",
      ts: received,
      speedKmh: 12,
      chargingStatus: "charging",
      dtcCodes: ["P0420"],
      weatherTemp: -7.5,
      ignition: 0,
      chargingPowerKw: 11,
    });
    expect(records([{ vin: "X", device_id: "mine", raw_data: { ignition: 1 } }])[0]).toMatchObject({ deviceId: "mine", ignition: 1 });
    expect(records([{ vin: "X" }])[0]).toMatchObject({ ignition: null, weatherTemp: null, rawData: null });
  });
});

describe("groupByDevice", () => {
  it("sorts by device time and keeps the last of duplicate (device, timestamp) records", () => {
    const groups = groupByDevice(
      records([
        { vin: "A", timestamp: "2026-11-21T10:02:00Z", speed_kmh: 2 },
        { vin: "A", timestamp: "2026-11-21T10:01:00Z", speed_kmh: 1 },
        { vin: "A", timestamp: "2026-11-21T10:02:00+00:00", speed_kmh: 3 },
        { vin: "B", timestamp: "2026-11-21T10:00:00Z" },
      ]),
    );
    expect([...groups.keys()]).toEqual(["oem-A", "oem-B"]);
    expect(groups.get("oem-A")?.map((r) => r.speedKmh)).toEqual([1, 3]);
  });
});

describe("masterUpdateFor", () => {
  it("lets newer records overwrite and older ones fill gaps, and tracks the odometer maximum (900 → 1,000 in an hour is driving, not a spike)", () => {
    const list = groupByDevice(
      records([
        { vin: "A", timestamp: "2026-11-21T10:00:00Z", odometer_km: 900, raw_data: { vehicle: { make: "Old", model: "M1", year: 2020 } } },
        { vin: "A", timestamp: "2026-11-21T11:00:00Z", odometer_km: 1000, raw_data: { vehicle: { make: "New", powertrain: "PHEV" } } },
        { vin: "A", timestamp: "2026-11-21T11:30:00Z", odometer_km: 990, fuel_level_pct: 50 },
      ]),
    ).get("oem-A")!;
    const u = masterUpdateFor("oem-A", list, null);
    expect(u).toMatchObject({ make: "New", model: "M1", year: 2020, powertrain: "PHEV", powertrainSource: "master_data", odometerMaxKm: 1000 });
    expect(u.masterDataAt?.toISOString()).toBe("2026-11-21T11:00:00.000Z");
    expect(u.odometerMaxAt?.toISOString()).toBe("2026-11-21T11:00:00.000Z");
    expect(u.latestTs.toISOString()).toBe("2026-11-21T11:30:00.000Z");
  });
  it("records an inference as such", () => {
    const u = masterUpdateFor("oem-A", records([{ vin: "A", soc_percent: 40 }]), null);
    expect(u).toMatchObject({ powertrain: "BEV", powertrainSource: "inferred", masterDataAt: null });
  });
});

describe("verifyIngestSignature", () => {
  const secret = "whsec_test";
  const body = { vehicles: [{ vin: "A", speed_kmh: 10 }], source: "s" };
  const raw = new TextEncoder().encode(JSON.stringify(body));
  const verify = (o: Partial<Parameters<typeof verifyIngestSignature>[0]>) => verifyIngestSignature({ secret, rule: "optional", rawBody: raw, header: null, body, ...o });

  it("accepts unsigned payloads unless signatures are required", () => {
    expect(verify({})).toEqual({ signed: false, timestamped: null });
    expect(() => verify({ rule: "required" })).toThrow(InvalidSignatureError);
  });
  it("checks the header over the raw bytes", () => {
    expect(verify({ header: `sha256=${hmacHex(secret, raw)}` })).toEqual({ signed: true, timestamped: null });
    expect(verify({ header: `SHA256=${hmacHex(secret, raw).toUpperCase()}` })).toEqual({ signed: true, timestamped: null });
    expect(() => verify({ header: `sha256=${hmacHex("other", raw)}` })).toThrow(InvalidSignatureError);
    expect(() => verify({ header: "sha256=" })).toThrow(InvalidSignatureError);
  });
  it("checks the body field over the canonical JSON without it", () => {
    const sig = hmacHex(secret, canonicalize(body)!);
    expect(verify({ body: { ...body, hmac_signature: sig } })).toEqual({ signed: true, timestamped: null });
    expect(() => verify({ body: { ...body, source: "t", hmac_signature: sig } })).toThrow(InvalidSignatureError);
    expect(() => verify({ body: { ...body, hmac_signature: 42 } })).toThrow(InvalidSignatureError);
  });
  describe("timestamped header `t=<unix seconds>,sha256=<hex>` over `<t>.<raw body>`", () => {
    const now = new Date("2026-11-28T12:00:00Z");
    const nowS = Math.floor(now.getTime() / 1000);
    const signAt = (t: number, key = secret) => `t=${t},sha256=${createHmac("sha256", key).update(`${t}.`).update(raw).digest("hex")}`;

    it("accepts a timestamp up to 300 s either side of the server clock, and says until when the signature is live", () => {
      for (const t of [nowS, nowS - 300, nowS + 300]) {
        const r = verify({ header: signAt(t), now });
        expect(r.signed).toBe(true);
        expect(r.timestamped?.expiresAt.getTime()).toBe((t + 300) * 1000);
        expect(r.timestamped?.signature).toMatch(/^[0-9a-f]{64}$/);
      }
      // Either order, spaces after the comma.
      const [tPart, hPart] = signAt(nowS).split(",");
      expect(verify({ header: `${hPart}, ${tPart}`, now }).signed).toBe(true);
    });

    it("refuses a timestamp more than 300 s away, a body or timestamp changed after signing, and malformed headers (401)", () => {
      expect(() => verify({ header: signAt(nowS - 301), now })).toThrow(/301 s behind/);
      expect(() => verify({ header: signAt(nowS + 301), now })).toThrow(/ahead of/);
      expect(() => verify({ header: signAt(nowS, "other"), now })).toThrow(InvalidSignatureError);
      // The HMAC covers the timestamp: moving t forward breaks it.
      expect(() => verify({ header: signAt(nowS - 1000).replace(/^t=\d+/, `t=${nowS}`), now })).toThrow(InvalidSignatureError);
      // The old form's HMAC under a timestamp does not verify.
      expect(() => verify({ header: `t=${nowS},sha256=${hmacHex(secret, raw)}`, now })).toThrow(InvalidSignatureError);
      for (const bad of [`t=abc,sha256=${"0".repeat(64)}`, `t=${nowS}`, `t=${nowS},t=${nowS},sha256=00`, `v=1,sha256=00`, "garbage"]) {
        expect(() => verify({ header: bad, now }), bad).toThrow(InvalidSignatureError);
      }
    });

    it("a tenant that requires timestamped signatures refuses the plain header, the body signature and none at all", () => {
      expect(verify({ header: signAt(nowS), now, rule: "timestamped" }).signed).toBe(true);
      expect(() => verify({ header: `sha256=${hmacHex(secret, raw)}`, now, rule: "timestamped" })).toThrow(/requires timestamped/);
      expect(() => verify({ body: { ...body, hmac_signature: hmacHex(secret, canonicalize(body)!) }, now, rule: "timestamped" })).toThrow(/requires timestamped/);
      expect(() => verify({ now, rule: "timestamped" })).toThrow(/requires timestamped/);
      // "required" still takes the older forms.
      expect(verify({ header: `sha256=${hmacHex(secret, raw)}`, rule: "required" }).signed).toBe(true);
    });
  });

  it("refuses when one of two present signatures is wrong", () => {
    const sig = hmacHex(secret, canonicalize(body)!);
    expect(() => verify({ header: "sha256=00", body: { ...body, hmac_signature: sig } })).toThrow(InvalidSignatureError);
  });
});
