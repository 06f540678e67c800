import type { AssetClass } from "@/lib/vocabulary/master-data";
import { type Adapted, convert, type FeedIngestRecord, isPlainObject, readNumber, type RecordOrigins, type SourceIssue, type SourcePath } from "./feed-record";
import { KM_PER_MILE } from "./units";

/**
 * Tesla Fleet Telemetry: the `Payload` message of teslamotors/fleet-telemetry's `vehicle_data.proto`
 * in its protobuf-JSON form (`{"vin", "createdAt", "data": [{"key": "VehicleSpeed", "value":
 * {"stringValue": "36.0"}}]}`), as its JSON dispatchers and `transmit_decoded_records` emit it.
 * The mapping is CONTRACT "Feeds" and docs/feeds.md's table; this file is its one implementation.
 */

/** CONTRACT: a Tesla vehicle is `oem-<vin>`, the default of every OEM record. */
const TESLA_DEVICE_PREFIX = "oem-";

/** The `Value` members that carry a number (protobuf JSON writes int64 as a string; floats may be strings). */
const NUMBER_MEMBERS = ["stringValue", "doubleValue", "floatValue", "intValue", "longValue"] as const;

/**
 * Tesla's charge states (`ChargingState` and `DetailedChargeStateValue`, and their older string
 * forms) in FDP's charging vocabulary (lib/vocabulary/charging.ts). `NoPower` is plugged in without
 * power: not charging. Starting and calibrating are neither charging nor idle, and kept as words of
 * their own; `Unknown` is not reported.
 */
const CHARGE_STATE_WORDS: Record<string, string | null> = {
  unknown: null,
  disconnected: "disconnected",
  nopower: "not_charging",
  starting: "starting",
  charging: "charging",
  complete: "complete",
  stopped: "stopped",
  calibrating: "calibrating",
};

/** Tesla's car types (`CarTypeValue`, or its string form) as a model name and, where it differs from the default, an asset class. */
const CAR_TYPES: Record<string, { model: string; asset_class?: AssetClass }> = {
  models: { model: "Model S" },
  modelx: { model: "Model X" },
  model3: { model: "Model 3" },
  modely: { model: "Model Y" },
  cybertruck: { model: "Cybertruck", asset_class: "light_commercial" },
  semitruck: { model: "Semi", asset_class: "heavy_truck" },
  semi: { model: "Semi", asset_class: "heavy_truck" },
};

/** An enum name without its type prefix, lower-case, letters and digits only: `DetailedChargeStateNoPower` → `nopower`. */
function enumWord(name: string, prefixes: readonly string[]): string {
  const prefix = prefixes.find((p) => name.startsWith(p));
  return (prefix ? name.slice(prefix.length) : name).toLowerCase().replace(/[^a-z0-9]/g, "");
}

interface Datum {
  index: number;
  value: Record<string, unknown>;
}

/** One Tesla Fleet Telemetry payload → one FDP ingest record. */
export function adaptTesla(payload: unknown): Adapted {
  if (!isPlainObject(payload))
    return { ok: false, issues: [{ path: [], message: 'must be a Fleet Telemetry payload: {"vin": …, "createdAt": …, "data": [{"key": …, "value": {…}}]}' }] };
  const issues: SourceIssue[] = [];

  const vin = typeof payload.vin === "string" && payload.vin.trim() !== "" ? payload.vin.trim() : undefined;
  if (vin === undefined) issues.push({ path: ["vin"], message: "is required: FDP files a Tesla's data under oem-<vin>" });
  const timeKey = payload.createdAt !== undefined ? "createdAt" : "created_at"; // protobuf JSON parsers accept both names
  const time = payload[timeKey];
  if (typeof time !== "string") issues.push({ path: [timeKey], message: "is required: an RFC 3339 date-time" });
  if (!Array.isArray(payload.data)) issues.push({ path: ["data"], message: "is required: an array of {key, value}" });

  // Each key once; a key repeated with another value is ambiguous and refused, an exact repeat is harmless.
  const byKey = new Map<string, Datum>();
  const sent: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // a key such as "__proto__" stays a key
  for (const [index, datum] of (Array.isArray(payload.data) ? payload.data : []).entries()) {
    if (!isPlainObject(datum)) {
      issues.push({ path: ["data", index], message: 'must be a Datum {"key": …, "value": {…}}' });
      continue;
    }
    if (typeof datum.key !== "string" || datum.key.trim() === "") {
      issues.push({ path: ["data", index, "key"], message: "must be a field name of vehicle_data.proto (a string)" });
      continue;
    }
    if (!isPlainObject(datum.value)) {
      issues.push({ path: ["data", index, "value"], message: 'must be a Value object such as {"stringValue": "36.0"}' });
      continue;
    }
    const before = byKey.get(datum.key);
    if (before && JSON.stringify(before.value) !== JSON.stringify(datum.value)) {
      issues.push({ path: ["data", index], message: `repeats ${datum.key} (data.${before.index}) with another value` });
      continue;
    }
    byKey.set(datum.key, { index, value: datum.value });
    sent[datum.key] = datum.value;
  }

  // Where each datum's value is, down to the member that holds it (`data.3.value.stringValue`).
  const memberOf = new Map<string, string>();
  const valuePath = (key: string): SourcePath => {
    const member = memberOf.get(key);
    return ["data", byKey.get(key)?.index ?? 0, "value", ...(member ? [member] : [])];
  };
  /** The datum of `key` when it holds a value (present, not marked invalid, not null). */
  const valued = (key: string): Datum | undefined => {
    const datum = byKey.get(key);
    if (!datum || datum.value.invalid === true) return undefined;
    return Object.values(datum.value).some((v) => v !== null && v !== undefined) ? datum : undefined;
  };
  /** A number datum in the unit `what`; undefined when absent or marked invalid. */
  const num = (key: string, what: string): number | undefined => {
    const datum = valued(key);
    if (!datum) return undefined;
    const member = NUMBER_MEMBERS.find((m) => datum.value[m] !== undefined && datum.value[m] !== null);
    if (!member) {
      issues.push({ path: valuePath(key), message: `must hold a number (${what})` });
      return undefined;
    }
    memberOf.set(key, member);
    return readNumber(datum.value[member], valuePath(key), what, issues);
  };
  /** An enum or string datum's name; undefined when absent or marked invalid. */
  const name = (key: string, members: readonly string[]): string | undefined => {
    const value = valued(key)?.value;
    const member = value && members.find((m) => typeof value[m] === "string");
    return member ? (value[member] as string) : undefined;
  };

  const speedMph = num("VehicleSpeed", "mph");
  const odometerMi = num("Odometer", "miles");
  // CONTRACT: Soc, else BatteryLevel.
  const socKey = valued("Soc") ? "Soc" : "BatteryLevel";
  const soc = num(socKey, "percent");
  const dcKw = num("DCChargingPower", "kW");
  const acKw = num("ACChargingPower", "kW");
  const outsideC = num("OutsideTemp", "°C");

  let lat: number | undefined;
  let lon: number | undefined;
  const location = byKey.get("Location");
  if (location && location.value.invalid !== true) {
    const loc = location.value.locationValue;
    if (!isPlainObject(loc)) issues.push({ path: valuePath("Location"), message: "must hold a locationValue {latitude, longitude}" });
    else {
      memberOf.set("Location", "locationValue");
      lat = readNumber(loc.latitude, [...valuePath("Location"), "latitude"], "degrees", issues);
      lon = readNumber(loc.longitude, [...valuePath("Location"), "longitude"], "degrees", issues);
    }
  }

  if (issues.length > 0 || vin === undefined || typeof time !== "string") return { ok: false, issues };

  // The detailed state where the vehicle sends it (Tesla's recommendation), else the older one.
  const chargeMembers = ["detailedChargeStateValue", "chargingValue", "stringValue"] as const;
  const chargeKey = name("DetailedChargeState", chargeMembers) !== undefined ? "DetailedChargeState" : "ChargeState";
  const chargeName = name(chargeKey, chargeMembers);
  const chargeWord = lookUp(CHARGE_STATE_WORDS, chargeName === undefined ? undefined : enumWord(chargeName, ["DetailedChargeState", "ChargeState"]));
  const carTypeName = name("CarType", ["carTypeValue", "stringValue"]);
  const carType = lookUp(CAR_TYPES, carTypeName === undefined ? undefined : enumWord(carTypeName, ["CarType"]));
  // The DC power while a DC charge flows (or when only it is sent), else the AC power.
  const powerKey = dcKw !== undefined && (dcKw > 0 || acKw === undefined) ? "DCChargingPower" : "ACChargingPower";
  const chargingKw = powerKey === "DCChargingPower" ? dcKw : acKw;

  const record: FeedIngestRecord = {
    vin,
    device_id: `${TESLA_DEVICE_PREFIX}${vin}`,
    timestamp: time,
    speed_kmh: convert(speedMph, KM_PER_MILE) ?? null,
    odometer_km: convert(odometerMi, KM_PER_MILE) ?? null,
    soc_percent: soc ?? null,
    lat: lat ?? null,
    lon: lon ?? null,
    charging_status: chargeWord ?? null,
    raw_data: {
      ...(chargingKw !== undefined ? { charging_power_kw: chargingKw } : {}),
      ...(outsideC !== undefined ? { ambient_temp_c: outsideC } : {}),
      // Every Tesla is battery-electric; the car type names the model where the vehicle sends it.
      vehicle: { make: "Tesla", powertrain: "BEV", ...(carType ?? {}) },
      // Every datum as sent, by key, including those FDP does not read.
      tesla: { ...sent },
      ...(payload.isResend === true ? { tesla_is_resend: true } : {}),
    },
  };
  const origins: RecordOrigins = {
    vin: ["vin"],
    device_id: ["vin"],
    timestamp: [timeKey],
    speed_kmh: valuePath("VehicleSpeed"),
    odometer_km: valuePath("Odometer"),
    soc_percent: valuePath(socKey),
    lat: [...valuePath("Location"), "latitude"],
    lon: [...valuePath("Location"), "longitude"],
    charging_status: valuePath(chargeKey),
    "raw_data.charging_power_kw": valuePath(powerKey),
    "raw_data.ambient_temp_c": valuePath("OutsideTemp"),
    "raw_data.vehicle": valuePath("CarType"),
    ...Object.fromEntries([...byKey].map(([key, d]) => [`raw_data.tesla.${key}`, ["data", d.index, "value"]])),
  };
  const notes = {
    device_id: `the device id is ${TESLA_DEVICE_PREFIX}<vin>`,
    speed_kmh: `mph × ${KM_PER_MILE} = km/h`,
    odometer_km: `miles × ${KM_PER_MILE} = km`,
  };
  return { ok: true, record, origins, notes };
}

/** `table[word]` for an own entry only: a word such as `constructor` names nothing. */
function lookUp<T>(table: Record<string, T>, word: string | undefined): T | undefined {
  return word !== undefined && Object.hasOwn(table, word) ? table[word] : undefined;
}
