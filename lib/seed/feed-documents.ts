import { KM_PER_MILE, KMH_PER_KNOT } from "@/lib/ingest/adapters/units";
import type { OemRecord } from "./simulate-vehicle";

/**
 * What the sandbox's feed vehicles send (docs/sandbox-data.md "Feeds"): a simulated record as the source
 * would publish it, for the feed adapters (lib/ingest/adapters/) to read back. Each document carries what
 * that source really reports and nothing more: a Traccar tracker no state of charge or fuel level, a Tesla
 * no 12 V voltage, state of health or trouble codes.
 */

/** The Traccar device a tracker is registered as. */
interface TraccarDevice {
  id: number;
  name: string;
  uniqueId: string;
  model: string;
  category: string;
}

/**
 * A record as Traccar forwards it (`forward.type=json`, org.traccar.model.Position and Device): speed in
 * knots, odometer in metres, engine hours in milliseconds, the 12 V supply as `power`, the VIN and trouble
 * codes where an OBD tracker (a Teltonika FMC) reads them.
 */
export function traccarDocument(r: OemRecord, device: TraccarDevice) {
  const raw = (r.raw_data ?? {}) as { ignition?: boolean };
  const speedKmh = r.speed_kmh ?? 0;
  const attributes: Record<string, unknown> = { sat: 11, rssi: 4, motion: speedKmh > 0, vin: r.vin };
  if (typeof raw.ignition === "boolean") attributes.ignition = raw.ignition;
  if (typeof r.odometer_km === "number") attributes.odometer = Math.round(r.odometer_km * 1000);
  if (typeof r.battery_voltage === "number") attributes.power = r.battery_voltage;
  if (typeof r.engine_hours === "number") attributes.hours = Math.round(r.engine_hours * 3_600_000);
  if (r.dtc_codes && r.dtc_codes.length > 0) attributes.dtcs = r.dtc_codes.join(" ");
  return {
    position: {
      deviceId: device.id,
      protocol: "teltonika",
      serverTime: r.timestamp,
      deviceTime: r.timestamp,
      fixTime: r.timestamp,
      outdated: false,
      valid: true,
      latitude: r.lat,
      longitude: r.lon,
      altitude: 0,
      speed: speedKmh / KMH_PER_KNOT,
      course: 0,
      attributes,
    },
    device,
  };
}

/** Tesla's charge states for the simulator's: not charging is unplugged while driving, plugged without power at rest. */
function detailedChargeState(r: OemRecord): string | null {
  if (r.charging_status === "charging") return "DetailedChargeStateCharging";
  if (r.charging_status === "complete") return "DetailedChargeStateComplete";
  if (r.charging_status === "not_charging") return (r.speed_kmh ?? 0) > 0 ? "DetailedChargeStateDisconnected" : "DetailedChargeStateNoPower";
  return null;
}

/**
 * A record as Tesla Fleet Telemetry sends it (a `Payload` of vehicle_data.proto in protobuf JSON, with
 * `transmit_decoded_records`): speed in mph and odometer in miles as strings, the state of charge, the
 * location, the charge state and AC charging power, the outside temperature and the car type.
 */
export function teslaPayload(r: OemRecord, carType: string) {
  const raw = (r.raw_data ?? {}) as { ambient_temp_c?: number; charging_power_kw?: number };
  const datum = (key: string, value: Record<string, unknown>) => ({ key, value });
  const charge = detailedChargeState(r);
  return {
    vin: r.vin,
    createdAt: r.timestamp,
    data: [
      datum("VehicleSpeed", { stringValue: String((r.speed_kmh ?? 0) / KM_PER_MILE) }),
      ...(typeof r.odometer_km === "number" ? [datum("Odometer", { stringValue: String(r.odometer_km / KM_PER_MILE) })] : []),
      ...(typeof r.soc_percent === "number" ? [datum("Soc", { stringValue: String(r.soc_percent) })] : []),
      ...(typeof r.lat === "number" && typeof r.lon === "number" ? [datum("Location", { locationValue: { latitude: r.lat, longitude: r.lon } })] : []),
      ...(charge ? [datum("DetailedChargeState", { detailedChargeStateValue: charge })] : []),
      ...(typeof raw.charging_power_kw === "number" ? [datum("ACChargingPower", { doubleValue: raw.charging_power_kw })] : []),
      ...(typeof raw.ambient_temp_c === "number" ? [datum("OutsideTemp", { doubleValue: raw.ambient_temp_c })] : []),
      datum("CarType", { carTypeValue: carType }),
    ],
    isResend: false,
  };
}
