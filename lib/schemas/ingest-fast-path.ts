import { z } from "zod";
import { isStorableString } from "@/lib/json/inspect-json";
import { DEVICE_ID_PATTERN } from "./common";
import {
  CHARGING_STATUS_MAX,
  DTC_CODES_MAX,
  DTC_PATTERN,
  INGEST_EARLIEST_MS,
  INGEST_MAX_VEHICLES,
  type IngestBody,
  type IngestRecordInput,
  RECORD_MEASURES as M,
  rawDataIssues,
  SOURCE_MAX_CHARS,
  VIN_PATTERN,
} from "./ingest";

/*
 * The ingest's validation fast path (docs/performance.md "Ingest validation without patched zod
 * internals"). zod's own parse of a 10,000-record body costs several times JSON.parse, and even
 * `z.compile` of the schema costs about 1.5 times this hand-written check (`npm run
 * bench:ingest-validation`). For any value JSON.parse can build (numbers may also be NaN or
 * ±Infinity), each function here returns exactly what its schema's parse returns (the same members in
 * the same order, strings trimmed where zod trims them, `raw_data` copied as z.record copies it), and
 * `undefined` exactly when the schema refuses the value. For values JSON cannot express (a member set
 * to `undefined`, another prototype, a symbol key) it may also answer `undefined` for a valid one.
 * Either way `undefined` hands the value to zod, which words every refusal. The ingest operation calls
 * it first (lib/operations/ingest.ts); tests/unit/schemas/ingest-fast-path.property.test.ts checks all
 * of this with fast-check.
 */

/** zod's pattern for `dateTime()` (`z.iso.datetime({ offset: true })`), from its public regex table. */
const DATE_TIME_PATTERN = z.regexes.datetime({ offset: true, local: false, precision: null });

/** Marks a member the fast path does not accept: the whole value goes to zod. */
const REFUSED = Symbol("refused");

/** `measure(min, max)`: a finite number in range, or null. */
function measure(x: unknown, min: number, max: number): unknown {
  if (x === null) return null;
  return typeof x === "number" && Number.isFinite(x) && x >= min && x <= max ? x : REFUSED;
}

/** Whether `s` has at most `max` characters as zod counts them: code points, not UTF-16 units. */
function withinLength(s: string, max: number): boolean {
  if (s.length <= max) return true;
  let n = 0;
  for (const _ of s) if (++n > max) return false;
  return true;
}

/** `text({ max })`: trimmed, 1..max characters, storable; or null. */
function text(x: unknown, max: number): unknown {
  if (x === null) return null;
  if (typeof x !== "string") return REFUSED;
  const t = x.trim();
  return t.length >= 1 && withinLength(t, max) && isStorableString(t) ? t : REFUSED;
}

/**
 * `raw_data` (not null): the copy z.record(z.string(), z.unknown()) returns (own enumerable string keys
 * in order, an own `__proto__` left out as zod leaves it out) when its refinement finds nothing.
 */
function rawData(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return REFUSED;
  // Objects as JSON.parse builds them; anything else (zod's isPlainObject has its own view of a
  // modified constructor or prototype, a symbol key is an invalid key) is zod's to judge.
  if (Object.getPrototypeOf(raw) !== Object.prototype || Object.getOwnPropertySymbols(raw).length > 0) return REFUSED;
  if (Object.hasOwn(raw, "constructor") && typeof (raw as { constructor: unknown }).constructor === "function") return REFUSED;
  const copy: Record<string, unknown> = {};
  for (const key in raw) {
    if (!Object.hasOwn(raw, key)) return REFUSED;
    // Assigning it would set the copy's prototype; z.record skips it.
    if (key === "__proto__") continue;
    copy[key] = (raw as Record<string, unknown>)[key];
  }
  return rawDataIssues(copy).length === 0 ? copy : REFUSED;
}

/** What `ingestRecordSchema` returns for `input`, or `undefined` (see the top of this file). */
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
    if (typeof ts !== "string" || !DATE_TIME_PATTERN.test(ts) || Date.parse(ts) < INGEST_EARLIEST_MS) return undefined;
    out.timestamp = ts;
  }
  // One statement per member, with literal names (property accesses V8 can inline).
  if ("odometer_km" in v && (out.odometer_km = measure(v.odometer_km, M.odometer_km[0], M.odometer_km[1])) === REFUSED) return undefined;
  if ("soc_percent" in v && (out.soc_percent = measure(v.soc_percent, M.soc_percent[0], M.soc_percent[1])) === REFUSED) return undefined;
  if ("soh_percent" in v && (out.soh_percent = measure(v.soh_percent, M.soh_percent[0], M.soh_percent[1])) === REFUSED) return undefined;
  if ("battery_voltage" in v && (out.battery_voltage = measure(v.battery_voltage, M.battery_voltage[0], M.battery_voltage[1])) === REFUSED) return undefined;
  if ("charging_status" in v && (out.charging_status = text(v.charging_status, CHARGING_STATUS_MAX)) === REFUSED) return undefined;
  if ("lat" in v && (out.lat = measure(v.lat, M.lat[0], M.lat[1])) === REFUSED) return undefined;
  if ("lon" in v && (out.lon = measure(v.lon, M.lon[0], M.lon[1])) === REFUSED) return undefined;
  if ("speed_kmh" in v && (out.speed_kmh = measure(v.speed_kmh, M.speed_kmh[0], M.speed_kmh[1])) === REFUSED) return undefined;
  if ("fuel_level_pct" in v && (out.fuel_level_pct = measure(v.fuel_level_pct, M.fuel_level_pct[0], M.fuel_level_pct[1])) === REFUSED) return undefined;
  if ("engine_hours" in v && (out.engine_hours = measure(v.engine_hours, M.engine_hours[0], M.engine_hours[1])) === REFUSED) return undefined;
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
    else if ((out.raw_data = rawData(raw)) === REFUSED) return undefined;
  }
  return out as IngestRecordInput;
}

/** What `ingestBodySchema` (and the ingest operation's input schema) returns for `input`, or `undefined`. */
export function fastIngestBody(input: unknown): IngestBody | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const v = input as Record<string, unknown>;
  const vehicles = v.vehicles;
  if (!Array.isArray(vehicles) || vehicles.length < 1 || vehicles.length > INGEST_MAX_VEHICLES) return undefined;
  const records = new Array<IngestRecordInput>(vehicles.length);
  for (let i = 0; i < vehicles.length; i++) {
    const record = fastIngestRecord(vehicles[i]);
    if (record === undefined) return undefined;
    records[i] = record;
  }
  const out: IngestBody = { vehicles: records };
  if ("source" in v) {
    const source = v.source;
    if (typeof source !== "string") return undefined;
    const t = source.trim();
    if (!withinLength(t, SOURCE_MAX_CHARS) || !isStorableString(t)) return undefined;
    out.source = t;
  }
  if ("hmac_signature" in v) {
    if (typeof v.hmac_signature !== "string") return undefined;
    out.hmac_signature = v.hmac_signature;
  }
  return out;
}
