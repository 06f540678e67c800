import { DTC_PATTERN } from "@/lib/schemas/ingest";
import type { AssetClass } from "@/lib/vocabulary/master-data";
import { type Adapted, convert, type FeedIngestRecord, isPlainObject, readNumber, type RecordOrigins, type SourceIssue, type SourcePath } from "./feed-record";
import { HOURS_PER_MILLISECOND, KM_PER_METRE, KMH_PER_KNOT } from "./units";

/**
 * Traccar's JSON position forwarding (`forward.type=json`): the `{position, device}` document Traccar
 * POSTs for every position (org.traccar.model.Position and Device; attribute keys are Position.KEY_*).
 * The mapping is CONTRACT "Feeds" and docs/feeds.md's table; this file is its one implementation.
 */

/** CONTRACT: a Traccar device is `traccar-<device.uniqueId>`. */
const TRACCAR_DEVICE_PREFIX = "traccar-";

/**
 * Traccar's device categories (the icons of its web app) that name an FDP asset class. Other
 * categories (person, animal, boat, bicycle, …) say nothing FDP can use and are left out, so the
 * CONTRACT's default applies.
 */
const ASSET_CLASS_OF_CATEGORY: Record<string, AssetClass> = {
  car: "passenger_car",
  van: "light_commercial",
  pickup: "light_commercial",
  truck: "heavy_truck",
  bus: "other",
  tractor: "other",
  crane: "other",
  motorcycle: "other",
  scooter: "other",
  trolleybus: "other",
  tram: "other",
};

/** A string member, trimmed; undefined when absent, empty or not a string. */
function stringMember(x: unknown): string | undefined {
  return typeof x === "string" && x.trim() !== "" ? x.trim() : undefined;
}

/** The codes of Traccar's `dtcs` attribute (a string of codes separated by spaces or commas) that are trouble codes. */
function troubleCodes(dtcs: unknown): string[] | undefined {
  if (typeof dtcs !== "string") return undefined;
  const codes = dtcs
    .split(/[\s,;]+/)
    .map((c) => c.toUpperCase())
    .filter((c) => DTC_PATTERN.test(c));
  return codes.length > 0 ? [...new Set(codes)] : undefined;
}

/** One Traccar position document → one FDP ingest record. */
export function adaptTraccar(doc: unknown): Adapted {
  if (!isPlainObject(doc)) return { ok: false, issues: [{ path: [], message: 'must be a Traccar position document: {"position": {…}, "device": {…}}' }] };
  const issues: SourceIssue[] = [];
  const { position, device } = doc;
  if (!isPlainObject(position)) issues.push({ path: ["position"], message: "is required: Traccar's position object" });
  if (!isPlainObject(device)) issues.push({ path: ["device"], message: "is required: Traccar's device object (forward.type=json sends it)" });
  if (!isPlainObject(position) || !isPlainObject(device)) return { ok: false, issues };

  const attributes = position.attributes ?? {};
  if (!isPlainObject(attributes)) issues.push({ path: ["position", "attributes"], message: "must be an object" });
  const attrs = isPlainObject(attributes) ? attributes : {};
  const at = (key: string): SourcePath => ["position", "attributes", key];

  const rawId = device.uniqueId;
  const uniqueId = typeof rawId === "number" && Number.isSafeInteger(rawId) && rawId >= 0 ? String(rawId) : stringMember(rawId);
  if (uniqueId === undefined) {
    const present = rawId !== undefined && rawId !== null && rawId !== "";
    issues.push({ path: ["device", "uniqueId"], message: present ? "must be a string or a whole number" : "is required: the device's unique id in Traccar (usually its IMEI)" });
  }

  // CONTRACT: the fix time, else the device time. A position Traccar marks outdated (a message without a
  // GPS fix) carries the previous fix's time as its fixTime (1980-01-06 before a device's first fix), so
  // its own time, that of its attributes (ignition, odometer, power), is the device time.
  const timeKey = position.outdated === true || position.fixTime === undefined || position.fixTime === null ? "deviceTime" : "fixTime";
  const timePath: SourcePath = ["position", timeKey];
  const time = position[timeKey];
  if (typeof time !== "string") issues.push({ path: timePath, message: "is required: an RFC 3339 date-time (fixTime, else deviceTime)" });

  // A fix Traccar marks invalid (no GPS lock) or outdated (the last known position repeated) says nothing
  // about where the vehicle is now, nor how fast it goes: position and speed are left unreported.
  const fixUsable = position.valid !== false && position.outdated !== true;
  const speedKnots = readNumber(position.speed, ["position", "speed"], "knots", issues);
  const lat = readNumber(position.latitude, ["position", "latitude"], "degrees", issues);
  const lon = readNumber(position.longitude, ["position", "longitude"], "degrees", issues);

  // CONTRACT: the odometer, else Traccar's own GPS distance total; both in metres.
  const odometerKey = attrs.odometer !== undefined && attrs.odometer !== null ? "odometer" : "totalDistance";
  const odometerM = readNumber(attrs[odometerKey], at(odometerKey), "metres", issues);
  const powerV = readNumber(attrs.power, at("power"), "volts", issues);
  const hoursMs = readNumber(attrs.hours, at("hours"), "milliseconds", issues);

  const ignition = attrs.ignition;
  if (ignition !== undefined && ignition !== null && typeof ignition !== "boolean") issues.push({ path: at("ignition"), message: "must be a boolean" });

  const vin = attrs.vin === undefined || attrs.vin === null ? null : stringMember(attrs.vin);
  if (vin === undefined) issues.push({ path: at("vin"), message: "must be the vehicle identification number (a string)" });

  if (issues.length > 0 || uniqueId === undefined || typeof time !== "string" || vin === undefined) return { ok: false, issues };

  const model = stringMember(device.model);
  const categoryWord = typeof device.category === "string" ? device.category.trim().toLowerCase() : "";
  const category = Object.hasOwn(ASSET_CLASS_OF_CATEGORY, categoryWord) ? ASSET_CLASS_OF_CATEGORY[categoryWord] : undefined;
  const vehicle = { ...(model ? { model } : {}), ...(category ? { asset_class: category } : {}) };

  const record: FeedIngestRecord = {
    vin,
    device_id: `${TRACCAR_DEVICE_PREFIX}${uniqueId}`,
    timestamp: time,
    speed_kmh: fixUsable ? (convert(speedKnots, KMH_PER_KNOT) ?? null) : null,
    lat: fixUsable ? (lat ?? null) : null,
    lon: fixUsable ? (lon ?? null) : null,
    odometer_km: convert(odometerM, KM_PER_METRE) ?? null,
    battery_voltage: powerV ?? null,
    engine_hours: convert(hoursMs, HOURS_PER_MILLISECOND) ?? null,
    dtc_codes: troubleCodes(attrs.dtcs) ?? null,
    raw_data: {
      ...(typeof ignition === "boolean" ? { ignition } : {}),
      ...(Object.keys(vehicle).length > 0 ? { vehicle } : {}),
      // The document as Traccar sent it: every attribute, including those FDP does not read.
      traccar: doc,
    },
  };
  const origins: RecordOrigins = {
    vin: at("vin"),
    device_id: ["device", "uniqueId"],
    timestamp: timePath,
    speed_kmh: ["position", "speed"],
    lat: ["position", "latitude"],
    lon: ["position", "longitude"],
    odometer_km: at(odometerKey),
    battery_voltage: at("power"),
    engine_hours: at("hours"),
    dtc_codes: at("dtcs"),
    "raw_data.ignition": at("ignition"),
    "raw_data.vehicle.model": ["device", "model"],
    "raw_data.vehicle.asset_class": ["device", "category"],
    "raw_data.traccar": [],
  };
  const notes = {
    device_id: `the device id is ${TRACCAR_DEVICE_PREFIX}<uniqueId>`,
    speed_kmh: `knots × ${KMH_PER_KNOT} = km/h`,
    odometer_km: "metres ÷ 1,000 = km",
    engine_hours: "milliseconds ÷ 3,600,000 = hours",
  };
  return { ok: true, record, origins, notes };
}
