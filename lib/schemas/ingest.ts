import { z } from "zod";
import {
  DRIVING_EVENT_KINDS,
  DRIVING_EVENT_MAX_DURATION_S,
  DRIVING_EVENT_VALUE,
  DRIVING_EVENTS_PER_RECORD_MAX,
  isDrivingEventKind,
} from "@/lib/vocabulary/driving-events";
import { ASSET_CLASSES } from "@/lib/vocabulary/master-data";
import { POWERTRAINS } from "@/lib/vocabulary/powertrain";
import { inspectJson, isStorableString } from "@/lib/json/inspect-json";
import { DEVICE_ID_PATTERN, dateTime, deviceId, text } from "./common";

/** CONTRACT "OEM ingest": at most this many vehicle records and bytes per request (413 beyond). */
export const INGEST_MAX_VEHICLES = 10_000;
export const INGEST_MAX_BYTES = 10 * 1024 * 1024;
/** Device clocks run a little fast; a timestamp further ahead than this is refused as implausible. */
export const INGEST_MAX_FUTURE_SKEW_MS = 10 * 60 * 1000;
/**
 * The earliest accepted device timestamp. Connected-car telematics of the kind FDP ingests (GPS,
 * state of charge, trouble codes over a cellular link) postdates it; an older stamp is an unset
 * clock (1970, year 0) and would also fall outside what Postgres and the scores can place in time.
 */
export const INGEST_EARLIEST_TIMESTAMP = "2000-01-01T00:00:00Z";
/** `raw_data` nests at most this many levels (the object itself is level 1). */
export const RAW_DATA_MAX_DEPTH = 16;
const FUTURE_MINUTES = INGEST_MAX_FUTURE_SKEW_MS / 60000;
/** INGEST_EARLIEST_TIMESTAMP in epoch ms, parsed once (the refinement below runs for every record). */
const EARLIEST_MS = Date.parse(INGEST_EARLIEST_TIMESTAMP);

/**
 * A device time (a record's `timestamp`, an event's `ts`): RFC 3339 with an offset, not before
 * INGEST_EARLIEST_TIMESTAMP. The upper bound, at most INGEST_MAX_FUTURE_SKEW_MS after FDP receives it,
 * depends on the receiving clock and is checked by the verb (lib/ingest/ingest-telemetry.ts).
 */
const deviceTime = (what: string) =>
  dateTime()
    // Unparseable stamps are already refused by the format check; this only bounds the parseable ones.
    .refine((t) => !(Date.parse(t) < EARLIEST_MS), { message: `must not be before ${INGEST_EARLIEST_TIMESTAMP}` })
    .meta({ description: `${what}, RFC 3339 with offset, from ${INGEST_EARLIEST_TIMESTAMP} to at most ${FUTURE_MINUTES} minutes after FDP receives it.` });

/** A number in [min, max]; null is accepted and means "not reported". */
const measure = (min: number, max: number, unit: string) =>
  z
    .number({ message: `must be a number (${unit})` })
    .min(min, { message: `must be at least ${min} ${unit}` })
    .max(max, { message: `must be at most ${max} ${unit}` })
    .nullish();

/** Vehicle master data carried in `raw_data.vehicle` (CONTRACT "Settled details"). */
export const vehicleMasterDataSchema = z
  .object({
    make: text({ max: 64 }).nullish(),
    model: text({ max: 128 }).nullish(),
    year: z.number().int().min(1950).max(2100).nullish(),
    powertrain: z.enum(POWERTRAINS, { message: `must be one of ${POWERTRAINS.join(", ")}` }).nullish(),
    fuel_type: text({ max: 32 }).nullish(),
    battery_kwh: measure(0.5, 500, "kWh"),
    original_price_eur: measure(0, 10_000_000, "EUR"),
    contract_km: z.number().int().min(0).max(5_000_000).nullish(),
    lease_start: z.iso
      .date({ message: "must be a date YYYY-MM-DD" })
      .refine((d) => d >= "1950-01-01" && d <= "2100-12-31", { message: "must be a date from 1950-01-01 to 2100-12-31" })
      .nullish(),
    lease_months: z.number().int().min(1).max(240).nullish(),
    asset_class: z.enum(ASSET_CLASSES, { message: `must be one of ${ASSET_CLASSES.join(", ")}` }).nullish(),
  })
  .meta({ id: "VehicleMasterData", description: "Optional `raw_data.vehicle`: upserted into the device's master data." });
export type VehicleMasterData = z.output<typeof vehicleMasterDataSchema>;

/**
 * One driving event of a known kind in `raw_data.events` (CONTRACT "Settled details"). `value` is a
 * magnitude: g for the harsh kinds (braking as a positive deceleration), km/h for overspeed.
 */
export const drivingEventSchema = z
  .object({
    kind: z.enum(DRIVING_EVENT_KINDS),
    ts: deviceTime("Device time of the event"),
    value: z.number({ message: "must be a number (g for harsh kinds, km/h for overspeed)" }).positive({ message: "must be greater than 0" }),
    duration_s: z
      .number({ message: "must be a number of seconds" })
      .min(0, { message: "must be at least 0 s" })
      .max(DRIVING_EVENT_MAX_DURATION_S, { message: `must be at most ${DRIVING_EVENT_MAX_DURATION_S} s` })
      .nullish(),
  })
  .superRefine((e, ctx) => {
    const { unit, max } = DRIVING_EVENT_VALUE[e.kind];
    if (e.value > max) ctx.addIssue({ code: "custom", path: ["value"], message: `must be at most ${max} ${unit} for ${e.kind}` });
  })
  .meta({ id: "DrivingEvent", description: "A known driving event in `raw_data.events`; other kinds are kept as sent and ignored by the scores." });
export type DrivingEventInput = z.output<typeof drivingEventSchema>;

/** Issues of `raw_data.events`: an array; entries objects with a string `kind`; known kinds fully validated, unknown ones kept as sent. */
function drivingEventIssues(events: unknown): { path: (string | number)[]; message: string }[] {
  if (!Array.isArray(events)) return [{ path: [], message: "must be an array of driving events" }];
  if (events.length > DRIVING_EVENTS_PER_RECORD_MAX) return [{ path: [], message: `holds at most ${DRIVING_EVENTS_PER_RECORD_MAX} events per record` }];
  return events.flatMap((event: unknown, j) => {
    if (event === null || typeof event !== "object" || Array.isArray(event)) return [{ path: [j], message: "must be an object with kind, ts and value" }];
    const kind = (event as { kind?: unknown }).kind;
    if (typeof kind !== "string" || kind.trim() === "") return [{ path: [j, "kind"], message: `must be a string: ${DRIVING_EVENT_KINDS.join(", ")} or a kind of your own (kept, not scored)` }];
    if (!isDrivingEventKind(kind)) return [];
    const parsed = drivingEventSchema.safeParse(event);
    return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: [j, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))], message: issue.message }));
  });
}

/** Driving events of kinds FDP does not score: kept in `raw_data` as sent (documented for completeness). */
export const otherDrivingEventSchema = z
  .object({ kind: z.string().regex(/\S/).meta({ description: "Any non-blank kind other than the known ones.", not: { enum: [...DRIVING_EVENT_KINDS] } }) })
  .catchall(z.unknown())
  .meta({ id: "OtherDrivingEvent", description: "A driving event of a kind FDP does not know: kept in `raw_data` as sent, ignored by the scores." });

/** Range-checked numeric members of `raw_data`: [name, min, max, what FDP does with it]. */
const RAW_MEASURES = [
  ["ambient_temp_c", -80, 70, "Outside temperature, °C: the fleet record's `weather_temp`."],
  ["charging_power_kw", 0, 2000, "Charging power, kW (charging status, energy, the charging detector)."],
] as const;

/** `raw_data.lv_battery_chemistry` is a word like `lead_acid` or `LFP`; longer than this it is not one. */
const LV_CHEMISTRY_MAX_CHARS = 40;

/**
 * `raw_data`: pass-through OEM fields, stored exactly as sent (so it is validated by refinement, never
 * transformed: an unknown member inside `vehicle` or a padded `make` is kept). The members FDP reads are
 * checked, and so documented below; every other member passes provided every string and name is
 * storable, every number finite and nesting bounded (inspectJson, the rules of the body itself).
 */
const rawDataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((raw, ctx) => {
    // Stored as jsonb: every string and name must be storable, every number finite, nesting bounded.
    const { problem } = inspectJson(raw, RAW_DATA_MAX_DEPTH);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
    if (raw.vehicle !== undefined && raw.vehicle !== null) {
      const parsed = vehicleMasterDataSchema.safeParse(raw.vehicle);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ["vehicle", ...issue.path] });
    }
    if (raw.events !== undefined && raw.events !== null) {
      for (const issue of drivingEventIssues(raw.events)) ctx.addIssue({ code: "custom", path: ["events", ...issue.path], message: issue.message });
    }
    for (const [key, min, max] of RAW_MEASURES) {
      const v = raw[key];
      if (v !== undefined && v !== null && (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max)) {
        ctx.addIssue({ code: "custom", path: [key], message: `must be a number from ${min} to ${max}` });
      }
    }
    // Read by the resting-12 V rule (lib/vocabulary/readings.ts and its SQL twin): a number or an
    // object there would be silently ignored (SQL ->> gives its JSON text), so it is refused instead.
    const chem = raw.lv_battery_chemistry;
    if (chem !== undefined && chem !== null && (typeof chem !== "string" || chem.length > LV_CHEMISTRY_MAX_CHARS)) {
      ctx.addIssue({ code: "custom", path: ["lv_battery_chemistry"], message: `must be a string of at most ${LV_CHEMISTRY_MAX_CHARS} characters` });
    }
    const ign = raw.ignition;
    if (ign !== undefined && ign !== null && ign !== true && ign !== false && ign !== 0 && ign !== 1) {
      ctx.addIssue({ code: "custom", path: ["ignition"], message: "must be a boolean or 0/1" });
    }
  })
  .nullish()
  .meta({
    description: `Pass-through OEM fields, stored as sent: at most ${RAW_DATA_MAX_DEPTH} levels deep, no NUL characters or lone surrogates in strings or names, finite numbers. The members below are read by FDP and validated; any other member passes through.`,
    // What the refinement above enforces, for the OpenAPI document (lib/openapi/document.ts registers the referenced components).
    properties: {
      ...Object.fromEntries(
        RAW_MEASURES.map(([key, min, max, description]) => [key, { type: ["number", "null"], minimum: min, maximum: max, description }]),
      ),
      ignition: { description: "Ignition on/off (boolean or 0/1): the fleet record's `ignition`; else 1 when the speed is above 0.", oneOf: [{ type: "boolean" }, { enum: [0, 1] }, { type: "null" }] },
      lv_battery_chemistry: {
        type: ["string", "null"],
        maxLength: LV_CHEMISTRY_MAX_CHARS,
        description: "Chemistry of the 12 V / auxiliary battery (e.g. `lead_acid`, `AGM`, `lithium-ion`, `LFP`): a lithium pack is not judged on the lead-acid resting-voltage curve (docs/methodology/vehicle-health.md).",
      },
      vehicle: { anyOf: [{ $ref: "#/components/schemas/VehicleMasterData" }, { type: "null" }] },
      events: {
        type: "array",
        maxItems: DRIVING_EVENTS_PER_RECORD_MAX,
        description: `Driving events reported by the OEM: known kinds (${DRIVING_EVENT_KINDS.join(", ")}) are validated and scored, other kinds are kept as sent. An empty array says the source reports events and there were none.`,
        items: { oneOf: [{ $ref: "#/components/schemas/DrivingEvent" }, { $ref: "#/components/schemas/OtherDrivingEvent" }] },
      },
    },
  });

/** Schemas of `raw_data` members that the OpenAPI document describes as components. */
export const RAW_DATA_MEMBER_SCHEMAS = [vehicleMasterDataSchema, drivingEventSchema, otherDrivingEventSchema] as const;

/**
 * Bounds and patterns of a record's members: ONE table that both the zod schema below and its fast
 * path (`fastIngestRecord`) read, so the two cannot drift apart.
 */
const RECORD_MEASURES = {
  odometer_km: [0, 5_000_000, "km"],
  soc_percent: [0, 100, "%"],
  soh_percent: [0, 100, "%"],
  battery_voltage: [0, 1500, "V"],
  lat: [-90, 90, "degrees"],
  lon: [-180, 180, "degrees"],
  speed_kmh: [0, 500, "km/h"],
  fuel_level_pct: [0, 100, "%"],
  engine_hours: [0, 1_000_000, "h"],
} as const satisfies Record<string, readonly [number, number, string]>;
const recordMeasure = (key: keyof typeof RECORD_MEASURES) => {
  const [min, max, unit] = RECORD_MEASURES[key];
  return measure(min, max, unit);
};
const VIN_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
const DTC_PATTERN = /^[PCBUpcbu][0-9A-Fa-f]{4}$/;
const CHARGING_STATUS_MAX = 32;
const DTC_CODES_MAX = 100;

/** SPEC 2.17: one OEM telemetry record. Unknown fields are ignored; null means "not reported". */
export const ingestRecordSchema = z
  .object({
    vin: z
      .string({ message: "is required (the vehicle identification number)" })
      .trim()
      .regex(VIN_PATTERN, { message: "must be 1–64 letters, digits or '-'" }),
    device_id: z
      .string()
      .trim()
      .pipe(deviceId())
      .optional()
      .meta({ description: "Defaults to `oem-<vin>`." }),
    timestamp: deviceTime("Device time of the record (default: the time FDP received it)").optional(),
    odometer_km: recordMeasure("odometer_km"),
    soc_percent: recordMeasure("soc_percent"),
    soh_percent: recordMeasure("soh_percent"),
    battery_voltage: recordMeasure("battery_voltage"),
    charging_status: text({ max: CHARGING_STATUS_MAX }).nullish(),
    lat: recordMeasure("lat"),
    lon: recordMeasure("lon"),
    speed_kmh: recordMeasure("speed_kmh"),
    fuel_level_pct: recordMeasure("fuel_level_pct"),
    engine_hours: recordMeasure("engine_hours"),
    dtc_codes: z
      .array(z.string().trim().regex(DTC_PATTERN, { message: "must be a diagnostic trouble code like P0420" }))
      .max(DTC_CODES_MAX)
      .nullish(),
    raw_data: rawDataSchema,
  })
  .meta({ id: "OemTelemetryRecord" });
export type IngestRecordInput = z.output<typeof ingestRecordSchema>;

/*
 * Validation fast path (docs/performance.md "Ingest against the raw driver"). zod spends some 4 µs on
 * each record; a 10,000-record body is 40 ms of a request. `fastIngestRecord` is a hand-written check
 * of the common, well-formed record that returns exactly what `ingestRecordSchema` returns for it (the
 * same members in the same order, strings trimmed where zod trims them, `raw_data` copied as z.record
 * copies it), and `undefined` for anything it does not recognise as valid: then zod parses the record
 * as before, so every refusal (its issues, paths and messages) is zod's own. It never accepts what zod
 * refuses: tests/unit/ingest/validation-fast-path.test.ts compares the two with fast-check.
 */

/** zod's own RFC 3339 pattern of `dateTime()` (a format check is this regex and nothing else). */
const DATE_TIME_PATTERN: RegExp = (() => {
  const pattern = (dateTime()._zod.def as { pattern?: unknown }).pattern;
  if (!(pattern instanceof RegExp)) throw new Error("zod's dateTime() no longer exposes its pattern: update the ingest fast path");
  return pattern;
})();
const [[, AMBIENT_MIN, AMBIENT_MAX], [, POWER_MIN, POWER_MAX]] = RAW_MEASURES;
const M = RECORD_MEASURES;

/** Marks "not recognised": zod decides. */
const FALLBACK = Symbol("fallback");
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- unknown holds FALLBACK; named for the reader
type Fast = unknown | typeof FALLBACK;

/** `measure(min, max)`: a finite number in range, or null; anything else (undefined included) falls back. */
function fastMeasure(x: unknown, min: number, max: number): Fast {
  if (x === null) return null;
  return typeof x === "number" && Number.isFinite(x) && x >= min && x <= max ? x : FALLBACK;
}

/** `text({ max })`: trimmed, 1..max characters, storable; null passes. */
function fastText(x: unknown, max: number): Fast {
  if (x === null) return null;
  if (typeof x !== "string") return FALLBACK;
  const t = x.trim();
  return t.length >= 1 && t.length <= max && isStorableString(t) ? t : FALLBACK;
}

/**
 * A plain object as JSON.parse builds it, copied as z.record copies it (its own enumerable string
 * keys, in order); undefined for anything else (another prototype, a symbol key, an own `__proto__`).
 */
function fastRecordCopy(raw: object): Record<string, unknown> | undefined {
  if (Object.getPrototypeOf(raw) !== Object.prototype || Object.hasOwn(raw, "constructor") || Object.getOwnPropertySymbols(raw).length > 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const key in raw) {
    if (key === "__proto__" || !Object.hasOwn(raw, key)) return undefined;
    out[key] = (raw as Record<string, unknown>)[key];
  }
  return out;
}

/** `rawDataSchema` on a non-null value: the copy z.record returns when every refinement passes. */
function fastRawData(raw: unknown): Fast {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return FALLBACK;
  const copy = fastRecordCopy(raw);
  if (!copy) return FALLBACK;
  if (inspectJson(copy, RAW_DATA_MAX_DEPTH).problem) return FALLBACK;
  const vehicle = copy.vehicle;
  if (vehicle !== undefined && vehicle !== null && !vehicleMasterDataSchema.safeParse(vehicle).success) return FALLBACK;
  const events = copy.events;
  if (events !== undefined && events !== null && drivingEventIssues(events).length > 0) return FALLBACK;
  const temp = copy.ambient_temp_c;
  if (temp !== undefined && temp !== null && (typeof temp !== "number" || !Number.isFinite(temp) || temp < AMBIENT_MIN || temp > AMBIENT_MAX)) return FALLBACK;
  const power = copy.charging_power_kw;
  if (power !== undefined && power !== null && (typeof power !== "number" || !Number.isFinite(power) || power < POWER_MIN || power > POWER_MAX)) return FALLBACK;
  const chem = copy.lv_battery_chemistry;
  if (chem !== undefined && chem !== null && (typeof chem !== "string" || chem.length > LV_CHEMISTRY_MAX_CHARS)) return FALLBACK;
  const ign = copy.ignition;
  if (ign !== undefined && ign !== null && ign !== true && ign !== false && ign !== 0 && ign !== 1) return FALLBACK;
  return copy;
}

/**
 * What `ingestRecordSchema` returns for `input` when `input` is a valid record FDP recognises on the
 * fast path; `undefined` when zod must decide (an invalid record, or an unusual valid one: a member
 * present with the value `undefined`, an object that JSON.parse would not build).
 */
export function fastIngestRecord(input: unknown): IngestRecordInput | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const v = input as Record<string, unknown>;
  // Members in the schema's order, present exactly when zod's output has them.
  const out: Record<string, unknown> = {};
  const vin = v.vin;
  if (typeof vin !== "string") return undefined;
  const vinTrimmed = vin.trim();
  if (!VIN_PATTERN.test(vinTrimmed)) return undefined;
  out.vin = vinTrimmed;
  if ("device_id" in v) {
    const id = v.device_id;
    if (typeof id !== "string") return undefined;
    const t = id.trim();
    if (!DEVICE_ID_PATTERN.test(t)) return undefined;
    out.device_id = t;
  }
  if ("timestamp" in v) {
    const ts = v.timestamp;
    if (typeof ts !== "string" || !DATE_TIME_PATTERN.test(ts) || Date.parse(ts) < EARLIEST_MS) return undefined;
    out.timestamp = ts;
  }
  // One statement per member, with literal names (property accesses V8 can inline).
  if ("odometer_km" in v && (out.odometer_km = fastMeasure(v.odometer_km, M.odometer_km[0], M.odometer_km[1])) === FALLBACK) return undefined;
  if ("soc_percent" in v && (out.soc_percent = fastMeasure(v.soc_percent, M.soc_percent[0], M.soc_percent[1])) === FALLBACK) return undefined;
  if ("soh_percent" in v && (out.soh_percent = fastMeasure(v.soh_percent, M.soh_percent[0], M.soh_percent[1])) === FALLBACK) return undefined;
  if ("battery_voltage" in v && (out.battery_voltage = fastMeasure(v.battery_voltage, M.battery_voltage[0], M.battery_voltage[1])) === FALLBACK) return undefined;
  if ("charging_status" in v && (out.charging_status = fastText(v.charging_status, CHARGING_STATUS_MAX)) === FALLBACK) return undefined;
  if ("lat" in v && (out.lat = fastMeasure(v.lat, M.lat[0], M.lat[1])) === FALLBACK) return undefined;
  if ("lon" in v && (out.lon = fastMeasure(v.lon, M.lon[0], M.lon[1])) === FALLBACK) return undefined;
  if ("speed_kmh" in v && (out.speed_kmh = fastMeasure(v.speed_kmh, M.speed_kmh[0], M.speed_kmh[1])) === FALLBACK) return undefined;
  if ("fuel_level_pct" in v && (out.fuel_level_pct = fastMeasure(v.fuel_level_pct, M.fuel_level_pct[0], M.fuel_level_pct[1])) === FALLBACK) return undefined;
  if ("engine_hours" in v && (out.engine_hours = fastMeasure(v.engine_hours, M.engine_hours[0], M.engine_hours[1])) === FALLBACK) return undefined;
  if ("dtc_codes" in v) {
    const codes = v.dtc_codes;
    if (codes === null) out.dtc_codes = null;
    else {
      if (!Array.isArray(codes) || codes.length > DTC_CODES_MAX) return undefined;
      const trimmed = new Array<string>(codes.length);
      for (let i = 0; i < codes.length; i++) {
        const c: unknown = codes[i];
        if (typeof c !== "string") return undefined;
        const t = c.trim();
        if (!DTC_PATTERN.test(t)) return undefined;
        trimmed[i] = t;
      }
      out.dtc_codes = trimmed;
    }
  }
  if ("raw_data" in v) {
    const raw = v.raw_data;
    if (raw === null) out.raw_data = null;
    else {
      const r = fastRawData(raw);
      if (r === FALLBACK) return undefined;
      out.raw_data = r;
    }
  }
  return out as IngestRecordInput;
}

/** Off only in the tests that compare the fast path with zod alone. */
let fastPathOn = true;
export function setIngestFastPath(on: boolean): void {
  fastPathOn = on;
}

{
  // The record schema runs the fast path first and zod only when it returns nothing. Hooked into the
  // schema's own run (zod's internal entry that z.array calls per element), so the schema object and
  // everything derived from it (the OpenAPI document, the operation's flat input schema) are unchanged.
  type Run = (payload: { value: unknown; issues: unknown[] }, ctx: { direction?: string } | undefined) => unknown;
  const internals = ingestRecordSchema._zod as unknown as { run: Run };
  const zodRun = internals.run;
  internals.run = (payload, ctx) => {
    if (fastPathOn && ctx?.direction !== "backward" && payload.issues.length === 0) {
      const fast = fastIngestRecord(payload.value);
      if (fast !== undefined) {
        payload.value = fast;
        return payload;
      }
    }
    return zodRun(payload, ctx);
  };
}

export const ingestBodySchema = z
  .object({
    vehicles: z
      .array(ingestRecordSchema, { message: "is required: an array of vehicle records" })
      .min(1, { message: "must hold at least one vehicle record" })
      .max(INGEST_MAX_VEHICLES, { message: `holds at most ${INGEST_MAX_VEHICLES} records` }),
    source: text({ min: 0, max: 100 }).optional(),
    hmac_signature: z
      .string()
      .optional()
      .meta({ description: "Lowercase hex HMAC-SHA256 of the RFC 8785 canonical JSON of the body without this member." }),
  })
  .meta({ id: "OemIngestRequest" });
export type IngestBody = z.output<typeof ingestBodySchema>;

export const ingestResponseSchema = z
  .object({ accepted: z.literal(true), device_count: z.number().int(), tenant_id: z.string() })
  .meta({ id: "OemIngestResponse", description: "`device_count` is the number of distinct devices in the payload." });
export type IngestResponse = z.output<typeof ingestResponseSchema>;
