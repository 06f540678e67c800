import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ingestOperation } from "@/lib/operations/ingest";
import { INGEST_MAX_VEHICLES, ingestBodySchema, ingestRecordSchema } from "@/lib/schemas/ingest";
import { fastIngestBody, fastIngestRecord } from "@/lib/schemas/ingest-fast-path";
import { parseInput } from "@/lib/validation";
import { DRIVING_EVENT_KINDS, DRIVING_EVENT_VALUE } from "@/lib/vocabulary/driving-events";
import { ASSET_CLASSES } from "@/lib/vocabulary/master-data";
import { POWERTRAINS } from "@/lib/vocabulary/powertrain";

/**
 * The ingest fast path (lib/schemas/ingest-fast-path.ts) against zod: over generated records, valid
 * ones and mutated invalid ones, `fastIngestRecord` and `ingestRecordSchema.safeParse` agree on
 * accept/reject and on the parsed value (members, their order, trimmed strings); the same for whole
 * bodies, and through the ingest operation's input schema (fast path first, zod for the rest) the
 * answers and error details are zod's own. FUZZ_SEED picks another seed.
 */

const seed = Number(process.env.FUZZ_SEED ?? 1);
const runs = (numRuns: number) => ({ seed, numRuns });

/** Deep equality that also checks every object's member order (JSON text) and `undefined` members. */
function expectSame(a: unknown, b: unknown): void {
  expect(a).toStrictEqual(b);
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
}

// ── valid records ────────────────────────────────────────────────────────────────────────────────

const pad = fc.constantFrom("", " ", "\t", "\n ", "\u00a0");
const padded = (s: fc.Arbitrary<string>) => fc.tuple(pad, s, pad).map(([a, b, c]) => a + b + c);
/** Plain JSON with storable strings (printable ASCII): extra members anywhere. */
const json = fc.jsonValue({ maxDepth: 3, stringUnit: "grapheme-ascii" });
const plain = { noNullPrototype: true } as const;

const timestamp = fc
  .tuple(fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2035-01-01T00:00:00Z"), noInvalidDate: true }), fc.constantFrom("ms", "s", "+02:00", "-05:30"))
  .map(([d, form]) => {
    const iso = d.toISOString();
    if (form === "ms") return iso;
    if (form === "s") return `${iso.slice(0, 19)}Z`;
    // The same instant written with an offset.
    const shift = (form === "+02:00" ? 120 : -330) * 60_000;
    return `${new Date(d.getTime() + shift).toISOString().slice(0, 23)}${form}`;
  });
const inRange = (min: number, max: number) =>
  fc.oneof(fc.double({ min, max, noNaN: true }), fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.constantFrom(min, max), fc.constant(null));
/** 1–32 characters as zod counts them (code points): emoji take two UTF-16 units each. */
const chargingStatus = fc.oneof(padded(fc.constantFrom("charging", "not_charging", "x".repeat(32), "🔌".repeat(32), "é")), fc.constant(null));
const dtc = padded(fc.stringMatching(/^[PCBUpcbu][0-9A-Fa-f]{4}$/));

const vehicle = fc.record(
  {
    make: fc.oneof(padded(fc.constantFrom("Volvo", "VW", "Škoda")), fc.constant(null)),
    model: fc.constantFrom("EX30", "ID.4", null),
    year: fc.integer({ min: 1950, max: 2100 }),
    powertrain: fc.constantFrom(...POWERTRAINS, null),
    fuel_type: fc.constantFrom("electric", "diesel", null),
    battery_kwh: fc.oneof(fc.double({ min: 0.5, max: 500, noNaN: true }), fc.constant(null)),
    original_price_eur: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.constant(null)),
    contract_km: fc.integer({ min: 0, max: 5_000_000 }),
    lease_start: fc.constantFrom("2025-03-01", "1950-01-01", "2100-12-31", "2024-02-29", null),
    lease_months: fc.integer({ min: 1, max: 240 }),
    asset_class: fc.constantFrom(...ASSET_CLASSES, null),
    extra: json,
  },
  { requiredKeys: [], ...plain },
);
const knownEvent = fc.constantFrom(...DRIVING_EVENT_KINDS).chain((kind) =>
  fc.record(
    {
      kind: fc.constant(kind),
      ts: timestamp,
      value: fc.double({ min: Number.MIN_VALUE, max: DRIVING_EVENT_VALUE[kind].max, noNaN: true }),
      duration_s: fc.oneof(fc.double({ min: 0, max: 3600, noNaN: true }), fc.constant(null)),
      note: json,
    },
    { requiredKeys: ["kind", "ts", "value"], ...plain },
  ),
);
const otherEvent = fc.record({ kind: fc.constantFrom("pothole", " lane_change ", "x"), anything: json }, { requiredKeys: ["kind"], ...plain });

const validRawDataObject = fc.record(
  {
    ambient_temp_c: inRange(-80, 70),
    charging_power_kw: inRange(0, 2000),
    ignition: fc.constantFrom(true, false, 0, 1, null),
    lv_battery_chemistry: fc.oneof(fc.constantFrom("LFP", "lead_acid", "x".repeat(40)), fc.constant(null)),
    vehicle: fc.oneof(vehicle, fc.constant(null)),
    events: fc.oneof(fc.array(fc.oneof(knownEvent, otherEvent), { maxLength: 3 }), fc.constant(null)),
    note: json,
    constructor: json,
  },
  { requiredKeys: [], ...plain },
);
const validRawData = fc.oneof(
  { weight: 8, arbitrary: validRawDataObject },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ unit: "grapheme-ascii", maxLength: 6 }), json, { maxKeys: 4, ...plain }) },
);

/** Valid records of every shape the schema allows: members absent, null, padded, at their bounds. */
const validRecord = fc.record(
  {
    vin: padded(fc.stringMatching(/^[A-Za-z0-9-]{1,64}$/)),
    device_id: padded(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/).filter((s) => s !== "." && s !== "..")),
    timestamp,
    odometer_km: inRange(0, 5_000_000),
    soc_percent: inRange(0, 100),
    soh_percent: inRange(0, 100),
    battery_voltage: inRange(0, 1500),
    charging_status: chargingStatus,
    lat: inRange(-90, 90),
    lon: inRange(-180, 180),
    speed_kmh: inRange(0, 500),
    fuel_level_pct: inRange(0, 100),
    engine_hours: inRange(0, 1_000_000),
    dtc_codes: fc.oneof(fc.array(dtc, { maxLength: 4 }), fc.constant(Array.from({ length: 100 }, () => "P0420")), fc.constant(null)),
    raw_data: validRawData,
    unknown_member: json,
  },
  { requiredKeys: ["vin"], ...plain },
);

// ── mutations that make (or may make) a record invalid ───────────────────────────────────────────

const RECORD_KEYS = [
  "vin",
  "device_id",
  "timestamp",
  "odometer_km",
  "soc_percent",
  "soh_percent",
  "battery_voltage",
  "charging_status",
  "lat",
  "lon",
  "speed_kmh",
  "fuel_level_pct",
  "engine_hours",
  "dtc_codes",
  "raw_data",
  "extra",
];
const RAW_KEYS = ["ambient_temp_c", "charging_power_kw", "ignition", "lv_battery_chemistry", "vehicle", "events", "note", "__proto__", "constructor", "a\u0000", "\ud800"];
const VEHICLE_KEYS = ["make", "model", "year", "powertrain", "battery_kwh", "lease_start", "lease_months", "asset_class"];
const EVENT_KEYS = ["kind", "ts", "value", "duration_s"];

const deep = fc.integer({ min: 14, max: 18 }).map((n) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { v };
  return v;
});
/** Values that break some rule somewhere: wrong types, non-finite and out-of-range numbers, bad stamps, hostile strings. */
const hostile = fc.oneof(
  fc.constantFrom("x", "", " ", true, false, 0, 1, -1, [], {}, ["P0420"], { a: 1 }),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e308, -1e308, 1e21, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, -0),
  fc.constantFrom(-90.0000001, 90.0000001, -180.5, 180.5, 100.0000001, -0.0000001, 500.1, 1500.1, 5_000_001, 1_000_001, 2000.1, -80.1, 70.1, 2.1, 3600.1),
  fc.constantFrom(
    "2026-11-21T08:00:00",
    "2026-11-21 08:00:00Z",
    "1999-12-31T23:59:59Z",
    "2000-01-01T01:00:00+02:00",
    "2026-13-01T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2026-11-21T08:00Z",
    " 2026-11-21T08:00:00Z",
    "0000-01-01T00:00:00Z",
  ),
  fc.constantFrom(
    "a\u0000b",
    "\u0000",
    "\ud800",
    "x\udc00",
    "🚗\ud83d",
    "A".repeat(65),
    "x".repeat(33),
    "🔌".repeat(33),
    "y".repeat(41),
    "p0420",
    "P042",
    "X0420",
    ".",
    "..",
    "a/b",
    "a".repeat(129),
  ),
  fc.constantFrom(" BEV", "bev", "EV", "bus", "2025-02-30", "1949-12-31", "harsh_braking", "overspeed", "my_kind"),
  fc.integer({ min: -1000, max: 6_000_000 }),
  fc.double(),
  deep,
  json,
);

type Rec = Record<string, unknown>;
type Where = "record" | "raw_data" | "vehicle" | "event";
type Mutation = { where: Where; key: string; value: unknown; remove: boolean };
const KEYS: Record<Where, string[]> = { record: RECORD_KEYS, raw_data: RAW_KEYS, vehicle: VEHICLE_KEYS, event: EVENT_KEYS };
/** A member set to a hostile value, or (one time in four) removed. */
const mutation: fc.Arbitrary<Mutation> = fc
  .constantFrom<Where>("record", "record", "raw_data", "vehicle", "event")
  .chain((where) => fc.record({ where: fc.constant(where), key: fc.constantFrom(...KEYS[where]), value: hostile, remove: fc.integer({ min: 0, max: 3 }).map((n) => n === 0) }));

/** A copy of `obj` with `key` set to `value` (an own member even for `__proto__`, as JSON.parse makes it) or removed. */
function withMember(obj: unknown, key: string, value: unknown, remove: boolean): Rec {
  const copy: Rec = obj !== null && typeof obj === "object" && !Array.isArray(obj) ? { ...(obj as Rec) } : {};
  if (remove) delete copy[key];
  else Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function mutate(record: Rec, m: Mutation): Rec {
  const raw = record.raw_data as Rec | null | undefined;
  switch (m.where) {
    case "record":
      return withMember(record, m.key, m.value, m.remove);
    case "raw_data":
      return { ...record, raw_data: withMember(raw, m.key, m.value, m.remove) };
    case "vehicle":
      return { ...record, raw_data: { ...raw, vehicle: withMember(raw?.vehicle, m.key, m.value, m.remove) } };
    case "event": {
      const events = Array.isArray(raw?.events) && raw.events.length > 0 ? raw.events : [{ kind: "harsh_braking", ts: "2026-11-21T07:58:12Z", value: 0.4 }];
      return { ...record, raw_data: { ...raw, events: [withMember(events[0], m.key, m.value, m.remove), ...events.slice(1)] } };
    }
  }
}

const mutatedRecord = fc.tuple(validRecord, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([record, ms]) => ms.reduce(mutate, record as Rec));
const anyRecord = fc.oneof({ weight: 2, arbitrary: validRecord }, { weight: 3, arbitrary: mutatedRecord }, { weight: 1, arbitrary: hostile });

describe("ingest fast path", () => {
  it("accepts every generated valid record, with zod's output", () => {
    fc.assert(
      fc.property(validRecord, (record) => {
        const zod = ingestRecordSchema.safeParse(record);
        expect(zod.success).toBe(true);
        expectSame(fastIngestRecord(record), zod.data);
      }),
      runs(1000),
    );
  });

  it("agrees with ingestRecordSchema.safeParse on accept/reject and on the parsed value, for valid, mutated and hostile records", () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(anyRecord, fc.boolean(), (generated, viaJson) => {
        // Half the time as it comes out of JSON.parse (an own `__proto__` member; NaN and Infinity become null).
        const record: unknown = viaJson ? JSON.parse(JSON.stringify(generated) ?? "null") : generated;
        const zod = ingestRecordSchema.safeParse(record);
        const fast = fastIngestRecord(record);
        expect(fast !== undefined).toBe(zod.success);
        if (zod.success) {
          expectSame(fast, zod.data);
          accepted++;
        } else refused++;
      }),
      runs(4000),
    );
    // Both answers are exercised, not just one.
    expect(Math.min(accepted, refused)).toBeGreaterThan(800);
  });

  it("never accepts what zod refuses, nor differs from it, on values JSON cannot express", () => {
    const odd = fc.oneof(
      validRecord.map((r) => ({ ...r, device_id: undefined })),
      validRecord.map((r) => ({ ...r, raw_data: undefined })),
      validRecord.map((r) => ({ ...r, raw_data: Object.assign(Object.create(null) as Rec, { note: 1 }) })),
      validRecord.map((r) => ({ ...r, raw_data: { [Symbol("s")]: 1, note: 1 } })),
      validRecord.map((r) => ({
        ...r,
        raw_data: new (class Raw {
          note = 1;
        })(),
      })),
      validRecord.map((r) => ({ ...r, raw_data: { constructor: () => 1 } })),
      validRecord.map((r) => Object.assign(Object.create({ inherited: 1 }) as Rec, r)),
    );
    fc.assert(
      fc.property(odd, (record) => {
        const fast = fastIngestRecord(record);
        const zod = ingestRecordSchema.safeParse(record);
        if (fast !== undefined) {
          expect(zod.success).toBe(true);
          expectSame(fast, zod.data);
        }
      }),
      runs(1000),
    );
  });

  it("gives the body's own answers and error details, through fastIngestBody and through the ingest operation's input schema", () => {
    const body = fc.record(
      {
        vehicles: fc.oneof(
          { weight: 6, arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: validRecord }, { weight: 1, arbitrary: mutatedRecord }), { minLength: 1, maxLength: 5 }) },
          { weight: 1, arbitrary: fc.oneof(fc.constant([]), hostile) },
        ),
        source: fc.oneof(padded(fc.constantFrom("oem-connect", "x".repeat(100), "🔌".repeat(100), "")), hostile),
        hmac_signature: fc.oneof(fc.string({ unit: fc.constantFrom(..."0123456789abcdef".split("")), maxLength: 64 }), hostile),
        other: json,
      },
      { requiredKeys: [], ...plain },
    );
    const outcome = (f: () => unknown) => {
      try {
        return { ok: f() };
      } catch (e) {
        return { error: { message: (e as Error).message, details: (e as { details?: unknown }).details } };
      }
    };
    fc.assert(
      fc.property(body, (input) => {
        const zod = ingestBodySchema.safeParse(input);
        const fast = fastIngestBody(input);
        expect(fast !== undefined).toBe(zod.success);
        if (zod.success) expectSame(fast, zod.data);
        expectSame(
          outcome(() => parseInput(ingestOperation.inputSchema, input)),
          outcome(() => parseInput(ingestBodySchema, input)),
        );
      }),
      runs(1500),
    );
  });

  it("holds the body's record limit: at most INGEST_MAX_VEHICLES records", () => {
    const record = { vin: "YV1XZ16K7P1234567", speed_kmh: 54 };
    for (const n of [INGEST_MAX_VEHICLES, INGEST_MAX_VEHICLES + 1]) {
      const input = { vehicles: Array.from({ length: n }, () => ({ ...record })) };
      const zod = ingestBodySchema.safeParse(input);
      expect(zod.success).toBe(n === INGEST_MAX_VEHICLES);
      expect(fastIngestBody(input)).toStrictEqual(zod.success ? zod.data : undefined);
    }
  });
});
