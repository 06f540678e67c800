import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ingestOperation } from "@/lib/operations/ingest";
import { fastIngestRecord, ingestBodySchema, ingestRecordSchema, setIngestFastPath } from "@/lib/schemas/ingest";
import { parseInput } from "@/lib/validation";

/**
 * The ingest validation fast path (lib/schemas/ingest.ts `fastIngestRecord`) against zod alone: for any
 * input, the schema with the fast path returns exactly what zod alone returns (the same data, members in
 * the same order, or the same issues), and whatever the fast path accepts, zod accepts with the same output.
 */

afterEach(() => setIngestFastPath(true));

/** Deep equality that also checks every object's member order (JSON text) and `undefined` members. */
function expectSame(a: unknown, b: unknown): void {
  expect(a).toStrictEqual(b);
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
}

function both<T>(f: () => T): { zod: T; fast: T } {
  setIngestFastPath(false);
  const zod = f();
  setIngestFastPath(true);
  const fast = f();
  return { zod, fast };
}

const issuesOf = (r: { success: boolean; error?: { issues: unknown[] } }) => (r.success ? null : r.error?.issues.map((i) => JSON.parse(JSON.stringify(i))));

// Values near every rule's edges, plus the hostile ones (NUL, lone surrogates, huge numbers).
const pad = fc.constantFrom("", " ", "\t", "\n ", "\u00a0");
const padded = (s: fc.Arbitrary<string>) => fc.tuple(pad, s, pad).map(([a, b, c]) => a + b + c);
const hostileString = fc.constantFrom("a\u0000b", "\ud800", "x\udc00", "\u0000", "🚗", "é", "");
const anyString = fc.oneof(fc.string({ maxLength: 70 }), fc.string({ unit: "grapheme", maxLength: 10 }), hostileString, fc.string({ unit: "binary", maxLength: 8 }));
const vin = fc.oneof(padded(fc.stringMatching(/^[A-Za-z0-9-]{1,64}$/)), fc.constant("A".repeat(65)), anyString);
const deviceId = fc.oneof(padded(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/)), fc.constantFrom(".", "..", "a/b", "a".repeat(129)), anyString);
const timestamp = fc.oneof(
  fc.date({ min: new Date("1999-06-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    "2026-11-21T08:00:00Z",
    "2026-11-21T08:00:00+02:00",
    "2026-11-21T08:00:00.123456+02:00",
    "2026-11-21T08:00:00",
    "2026-11-21 08:00:00Z",
    "1999-12-31T23:59:59Z",
    "2000-01-01T00:00:00Z",
    "2000-01-01T01:00:00+02:00",
    "2024-02-29T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    " 2026-11-21T08:00:00Z",
  ),
  anyString,
);
const number = fc.oneof(
  fc.double({ min: -10, max: 2_000_000, noNaN: false }),
  fc.integer({ min: -200, max: 600 }),
  fc.constantFrom(0, -0, 100, 100.0000001, 500, 1500, 5_000_000, 5_000_001, -90, 90, -180, 180, Number.NaN, Infinity, -Infinity, 1e308),
);
const nullishish = fc.constantFrom(null, undefined);
const wrongType = fc.oneof(fc.string({ maxLength: 3 }), fc.boolean(), fc.constant([]), fc.constant({}));
const measure = fc.oneof({ weight: 6, arbitrary: number }, { weight: 2, arbitrary: nullishish }, { weight: 1, arbitrary: wrongType });
const chargingStatus = fc.oneof(padded(fc.constantFrom("charging", "not_charging", "CHARGING", "x".repeat(32), "x".repeat(33))), anyString, nullishish, wrongType);
const dtc = fc.oneof(padded(fc.stringMatching(/^[PCBUpcbu][0-9A-Fa-f]{4}$/)), fc.constantFrom("P042", "X0420", "P04200"), anyString, fc.integer());
const dtcCodes = fc.oneof(fc.array(dtc, { maxLength: 4 }), fc.array(fc.constant("P0420"), { minLength: 99, maxLength: 102 }), nullishish, wrongType);
const json = fc.jsonValue({ maxDepth: 3 });
const vehicle = fc.oneof(
  fc.record(
    {
      make: fc.oneof(padded(fc.constantFrom("Volvo", "VW")), anyString, fc.constant(null)),
      model: fc.oneof(fc.constantFrom("EX30", "ID.4"), anyString),
      year: fc.oneof(fc.integer({ min: 1940, max: 2110 }), fc.double()),
      powertrain: fc.constantFrom("BEV", "PHEV", "HEV", "ICE", "bev", "EV", null),
      battery_kwh: fc.oneof(fc.double({ min: 0, max: 600 }), fc.constant(null)),
      lease_start: fc.constantFrom("2025-03-01", "1949-12-31", "2025-02-30", "x"),
      lease_months: fc.integer({ min: 0, max: 300 }),
      asset_class: fc.constantFrom("passenger_car", "other", "bus"),
      extra: json,
    },
    { requiredKeys: [] },
  ),
  wrongType,
  fc.constant(null),
);
const event = fc.oneof(
  fc.record(
    {
      kind: fc.constantFrom("harsh_braking", "overspeed", "my_kind", " ", "", 3),
      ts: timestamp,
      value: fc.oneof(fc.double({ min: -1, max: 300 }), fc.constant("1")),
      duration_s: fc.oneof(fc.double({ min: -1, max: 100_000 }), fc.constant(null)),
    },
    { requiredKeys: [] },
  ),
  json,
);
const deep = fc.integer({ min: 14, max: 18 }).map((n) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { v };
  return v;
});
const rawData = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        ambient_temp_c: fc.oneof(fc.double({ min: -100, max: 100 }), fc.constant(null), fc.constant("5")),
        ignition: fc.constantFrom(true, false, 0, 1, 2, "1", null),
        charging_power_kw: fc.oneof(fc.double({ min: -1, max: 2100 }), fc.constant(null)),
        lv_battery_chemistry: fc.oneof(fc.constantFrom("LFP", "lead_acid", "x".repeat(41)), fc.integer(), fc.constant(null)),
        vehicle,
        events: fc.oneof(fc.array(event, { maxLength: 3 }), fc.constant(null), wrongType),
        note: anyString,
        nested: fc.oneof(json, deep),
        "bad\u0000name": fc.constant(1),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, [], "x", 3) },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__": {"a": 1}, "b": 2}')) },
  { weight: 1, arbitrary: fc.constantFrom({ "a\u0000": 1 }, { "\ud800": 1 }, { constructor: 1 }, Object.create(null) as object) },
  { weight: 1, arbitrary: fc.dictionary(anyString, json, { maxKeys: 4 }) },
);

/** Any record, valid or not: every member optional, each value from the rule's edges or elsewhere. */
const anyRecord = fc.record(
  {
    vin,
    device_id: fc.oneof(deviceId, nullishish),
    timestamp: fc.oneof(timestamp, nullishish),
    odometer_km: measure,
    soc_percent: measure,
    soh_percent: measure,
    battery_voltage: measure,
    charging_status: chargingStatus,
    lat: measure,
    lon: measure,
    speed_kmh: measure,
    fuel_level_pct: measure,
    engine_hours: measure,
    dtc_codes: dtcCodes,
    raw_data: rawData,
    unknown_member: json,
  },
  { requiredKeys: [] },
);

/** Well-formed records like the OEM feeds and the benchmark send (the fast path's business). */
const wellFormed = fc.record(
  {
    vin: fc.stringMatching(/^[A-Z0-9]{17}$/),
    timestamp: fc.date({ min: new Date("2001-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
    odometer_km: fc.double({ min: 0, max: 900_000, noNaN: true }),
    soc_percent: fc.double({ min: 0, max: 100, noNaN: true }),
    soh_percent: fc.double({ min: 0, max: 100, noNaN: true }),
    battery_voltage: fc.double({ min: 11, max: 800, noNaN: true }),
    charging_status: fc.constantFrom("charging", "not_charging", " Charging "),
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
    speed_kmh: fc.double({ min: 0, max: 250, noNaN: true }),
    fuel_level_pct: fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constant(null)),
    dtc_codes: fc.array(fc.constantFrom("P0420", "p0a80", " U0100 "), { maxLength: 3 }),
    raw_data: fc.record(
      {
        ambient_temp_c: fc.double({ min: -30, max: 40, noNaN: true }),
        ignition: fc.boolean(),
        vehicle: fc.record({ make: fc.constant("Volvo"), model: fc.constant("EX30"), year: fc.constant(2024), powertrain: fc.constant("BEV"), battery_kwh: fc.constant(69) }, { requiredKeys: [], noNullPrototype: true }),
      },
      { requiredKeys: ["ambient_temp_c", "ignition"], noNullPrototype: true },
    ),
  },
  { requiredKeys: ["vin", "timestamp"], noNullPrototype: true },
);

describe("ingest validation fast path", () => {
  it("returns exactly what zod returns for any record (data, member order, issues)", () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        const { zod, fast } = both(() => ingestRecordSchema.safeParse(record));
        expect(fast.success).toBe(zod.success);
        if (zod.success) expectSame(fast.data, zod.data);
        else expect(issuesOf(fast)).toStrictEqual(issuesOf(zod));
        const direct = fastIngestRecord(record);
        if (direct !== undefined) {
          expect(zod.success).toBe(true);
          expectSame(direct, zod.data);
        }
      }),
      { numRuns: 4000 },
    );
  });

  it("takes the fast path for well-formed records, with zod's output", () => {
    fc.assert(
      fc.property(wellFormed, (record) => {
        setIngestFastPath(false);
        const zod = ingestRecordSchema.parse(record);
        setIngestFastPath(true);
        const direct = fastIngestRecord(record);
        expect(direct).not.toBeUndefined();
        expectSame(direct, zod);
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the same answers and error details for whole bodies, through the operation's own input schema", () => {
    const body = fc.record(
      {
        vehicles: fc.oneof({ weight: 4, arbitrary: fc.array(fc.oneof(wellFormed, anyRecord), { minLength: 0, maxLength: 6 }) }, { weight: 1, arbitrary: wrongType }),
        source: fc.oneof(fc.string({ maxLength: 5 }), fc.integer()),
        hmac_signature: fc.string({ maxLength: 5 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, (input) => {
        for (const schema of [ingestBodySchema, ingestOperation.inputSchema]) {
          const { zod, fast } = both(() => {
            try {
              return { ok: parseInput(schema, input) };
            } catch (e) {
              return { error: { message: (e as Error).message, details: (e as { details?: unknown }).details } };
            }
          });
          expectSame(fast, zod);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("is the path a JSON body's records take (the hostile values still fall back to zod's refusals)", () => {
    const hostile = [
      { vin: "A1", raw_data: { note: "a\u0000b" } },
      { vin: "A1", raw_data: { note: "\ud800" } },
      // eslint-disable-next-line no-loss-of-precision -- overflows to Infinity on purpose, as JSON.parse would
      { vin: "A1", raw_data: { n: 1e400 } },
      { vin: "A1", odometer_km: Infinity },
      { vin: "A1", charging_status: "x\u0000" },
    ];
    for (const record of hostile) {
      expect(fastIngestRecord(record)).toBeUndefined();
      const { zod, fast } = both(() => ingestRecordSchema.safeParse(record));
      expect(fast.success).toBe(false);
      expect(issuesOf(fast)).toStrictEqual(issuesOf(zod));
    }
  });
});
