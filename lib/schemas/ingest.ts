import { z } from "zod";
import { DRIVING_EVENT_KINDS, DRIVING_EVENT_MAX_DURATION_S, DRIVING_EVENT_VALUE, DRIVING_EVENTS_PER_RECORD_MAX, isDrivingEventKind } from "@/lib/vocabulary/driving-events";
import { ASSET_CLASSES } from "@/lib/vocabulary/master-data";
import { POWERTRAINS } from "@/lib/vocabulary/powertrain";
import { inspectJson } from "@/lib/json/inspect-json";
import { dateTime, deviceId, text } from "./common";

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
const INGEST_EARLIEST_TIMESTAMP = "2000-01-01T00:00:00Z";
/** `raw_data` nests at most this many levels (the object itself is level 1). */
const RAW_DATA_MAX_DEPTH = 16;
const FUTURE_MINUTES = INGEST_MAX_FUTURE_SKEW_MS / 60000;
/** INGEST_EARLIEST_TIMESTAMP in epoch ms, parsed once (the refinement below runs for every record). */
export const INGEST_EARLIEST_MS = Date.parse(INGEST_EARLIEST_TIMESTAMP);

/**
 * A device time (a record's `timestamp`, an event's `ts`): RFC 3339 with an offset, not before
 * INGEST_EARLIEST_TIMESTAMP. The upper bound, at most INGEST_MAX_FUTURE_SKEW_MS after FDP receives it,
 * depends on the receiving clock and is checked by the verb (lib/ingest/ingest-telemetry.ts).
 */
const deviceTime = (what: string) =>
  dateTime()
    // Unparseable stamps are already refused by the format check; this only bounds the parseable ones.
    .refine((t) => !(Date.parse(t) < INGEST_EARLIEST_MS), { message: `must not be before ${INGEST_EARLIEST_TIMESTAMP}` })
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
    if (typeof kind !== "string" || kind.trim() === "")
      return [{ path: [j, "kind"], message: `must be a string: ${DRIVING_EVENT_KINDS.join(", ")} or a kind of your own (kept, not scored)` }];
    if (!isDrivingEventKind(kind)) return [];
    const parsed = drivingEventSchema.safeParse(event);
    return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: [j, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))], message: issue.message }));
  });
}

/** Driving events of kinds FDP does not score: kept in `raw_data` as sent (documented for completeness). */
const otherDrivingEventSchema = z
  .object({
    kind: z
      .string()
      .regex(/\S/)
      .meta({ description: "Any non-blank kind other than the known ones.", not: { enum: [...DRIVING_EVENT_KINDS] } }),
  })
  .catchall(z.unknown())
  .meta({ id: "OtherDrivingEvent", description: "A driving event of a kind FDP does not know: kept in `raw_data` as sent, ignored by the scores." });

/** Range-checked numeric members of `raw_data`: [name, min, max, what FDP does with it]. */
const RAW_MEASURES = [
  ["ambient_temp_c", -80, 70, "Outside temperature, °C: the fleet record's `weather_temp`."],
  ["charging_power_kw", 0, 2000, "Charging power, kW (charging status, energy, the charging detector)."],
] as const;

/** `raw_data.lv_battery_chemistry` is a word like `lead_acid` or `LFP`; longer than this it is not one. */
const LV_CHEMISTRY_MAX_CHARS = 40;

/** An issue of `raw_data` as its refinement adds it: the master data's own zod issues, or a custom one. */
type RawDataIssue = { code: string; path: PropertyKey[]; message: string };

/**
 * What is wrong with a `raw_data` object (z.record's copy of it), in the order the refinement below
 * reports it; empty when nothing is. The record schema's refinement and the ingest fast path
 * (lib/schemas/ingest-fast-path.ts) both call it, so the rules live here once.
 */
export function rawDataIssues(raw: Record<string, unknown>): RawDataIssue[] {
  const issues: RawDataIssue[] = [];
  // Stored as jsonb: every string and name must be storable, every number finite, nesting bounded.
  const { problem } = inspectJson(raw, RAW_DATA_MAX_DEPTH);
  if (problem) issues.push({ code: "custom", path: problem.path, message: problem.message });
  if (raw.vehicle !== undefined && raw.vehicle !== null) {
    const parsed = vehicleMasterDataSchema.safeParse(raw.vehicle);
    if (!parsed.success) for (const issue of parsed.error.issues) issues.push({ ...issue, path: ["vehicle", ...issue.path] });
  }
  if (raw.events !== undefined && raw.events !== null) {
    for (const issue of drivingEventIssues(raw.events)) issues.push({ code: "custom", path: ["events", ...issue.path], message: issue.message });
  }
  for (const [key, min, max] of RAW_MEASURES) {
    const v = raw[key];
    if (v !== undefined && v !== null && (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max)) {
      issues.push({ code: "custom", path: [key], message: `must be a number from ${min} to ${max}` });
    }
  }
  // Read by the resting-12 V rule (lib/vocabulary/readings.ts and its SQL twin): a number or an
  // object there would be silently ignored (SQL ->> gives its JSON text), so it is refused instead.
  const chem = raw.lv_battery_chemistry;
  if (chem !== undefined && chem !== null && (typeof chem !== "string" || chem.length > LV_CHEMISTRY_MAX_CHARS)) {
    issues.push({ code: "custom", path: ["lv_battery_chemistry"], message: `must be a string of at most ${LV_CHEMISTRY_MAX_CHARS} characters` });
  }
  const ign = raw.ignition;
  if (ign !== undefined && ign !== null && ign !== true && ign !== false && ign !== 0 && ign !== 1) {
    issues.push({ code: "custom", path: ["ignition"], message: "must be a boolean or 0/1" });
  }
  return issues;
}

/**
 * `raw_data`: pass-through OEM fields, stored exactly as sent (so it is validated by refinement, never
 * transformed: an unknown member inside `vehicle` or a padded `make` is kept). The members FDP reads are
 * checked, and so documented below; every other member passes provided every string and name is
 * storable, every number finite and nesting bounded (inspectJson, the rules of the body itself).
 */
const rawDataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((raw, ctx) => {
    for (const issue of rawDataIssues(raw)) ctx.addIssue(issue as never);
  })
  .nullish()
  .meta({
    description: `Pass-through OEM fields, stored as sent: at most ${RAW_DATA_MAX_DEPTH} levels deep, no NUL characters or lone surrogates in strings or names, finite numbers. The members below are read by FDP and validated; any other member passes through.`,
    // What the refinement above enforces, for the OpenAPI document (lib/openapi/document.ts registers the referenced components).
    properties: {
      ...Object.fromEntries(RAW_MEASURES.map(([key, min, max, description]) => [key, { type: ["number", "null"], minimum: min, maximum: max, description }])),
      ignition: {
        description: "Ignition on/off (boolean or 0/1): the fleet record's `ignition`; else 1 when the speed is above 0.",
        oneOf: [{ type: "boolean" }, { enum: [0, 1] }, { type: "null" }],
      },
      lv_battery_chemistry: {
        type: ["string", "null"],
        maxLength: LV_CHEMISTRY_MAX_CHARS,
        description:
          "Chemistry of the 12 V / auxiliary battery (e.g. `lead_acid`, `AGM`, `lithium-ion`, `LFP`): a lithium pack is not judged on the lead-acid resting-voltage curve (docs/methodology/vehicle-health.md).",
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
 * Bounds and patterns of a record's members: ONE table that both the zod schema below and the ingest
 * fast path (lib/schemas/ingest-fast-path.ts) read, so the two cannot drift apart.
 */
export const RECORD_MEASURES = {
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
export const VIN_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
export const DTC_PATTERN = /^[PCBUpcbu][0-9A-Fa-f]{4}$/;
export const CHARGING_STATUS_MAX = 32;
export const DTC_CODES_MAX = 100;
export const SOURCE_MAX_CHARS = 100;

/** SPEC 2.17: one OEM telemetry record. Unknown fields are ignored; null means "not reported". */
export const ingestRecordSchema = z
  .object({
    vin: z.string({ message: "is required (the vehicle identification number)" }).trim().regex(VIN_PATTERN, { message: "must be 1–64 letters, digits or '-'" }),
    device_id: z.string().trim().pipe(deviceId()).optional().meta({ description: "Defaults to `oem-<vin>`." }),
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

/**
 * An OEM ingest request body: what the OpenAPI document describes and what words every refusal. The
 * ingest operation tries the fast path first (lib/operations/ingest.ts, lib/schemas/ingest-fast-path.ts).
 */
export const ingestBodySchema = z
  .object({
    vehicles: z
      .array(ingestRecordSchema, { message: "is required: an array of vehicle records" })
      .min(1, { message: "must hold at least one vehicle record" })
      .max(INGEST_MAX_VEHICLES, { message: `holds at most ${INGEST_MAX_VEHICLES} records` }),
    source: text({ min: 0, max: SOURCE_MAX_CHARS }).optional(),
    hmac_signature: z.string().optional().meta({ description: "Lowercase hex HMAC-SHA256 of the RFC 8785 canonical JSON of the body without this member." }),
  })
  .meta({ id: "OemIngestRequest" });
export type IngestBody = z.output<typeof ingestBodySchema>;

export const ingestResponseSchema = z
  .object({ accepted: z.literal(true), device_count: z.number().int(), tenant_id: z.string() })
  .meta({ id: "OemIngestResponse", description: "`device_count` is the number of distinct devices in the payload." });
export type IngestResponse = z.output<typeof ingestResponseSchema>;
