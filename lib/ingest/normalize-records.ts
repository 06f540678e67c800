import { odometerSpikes } from "@/lib/detectors/odometer-integrity";
import type { TelemetryRecord } from "@/lib/detectors/types";
import type { IngestBody, VehicleMasterData } from "@/lib/schemas/ingest";
import { vehicleMasterDataSchema } from "@/lib/schemas/ingest";
import { inferPowertrain, type Powertrain, type PowertrainSource } from "@/lib/vocabulary/powertrain";

/** SPEC 2.17 records → FDP telemetry records, with CONTRACT's defaults and mappings. */
export function toTelemetryRecords(body: IngestBody, receivedAt: Date): TelemetryRecord[] {
  return body.vehicles.map((v) => {
    const raw = v.raw_data ?? null;
    const ign = raw?.ignition;
    return {
      deviceId: v.device_id ?? `oem-${v.vin}`,
      vin: v.vin,
      ts: v.timestamp ? new Date(v.timestamp) : receivedAt,
      odometerKm: v.odometer_km ?? null,
      socPct: v.soc_percent ?? null,
      sohPct: v.soh_percent ?? null,
      batteryVoltage: v.battery_voltage ?? null,
      chargingStatus: v.charging_status?.toLowerCase() ?? null,
      chargingPowerKw: typeof raw?.charging_power_kw === "number" ? raw.charging_power_kw : null,
      lat: v.lat ?? null,
      lon: v.lon ?? null,
      speedKmh: v.speed_kmh ?? null,
      fuelLevelPct: v.fuel_level_pct ?? null,
      engineHours: v.engine_hours ?? null,
      dtcCodes: v.dtc_codes ? [...new Set(v.dtc_codes.map((c) => c.toUpperCase()))] : null,
      weatherTemp: typeof raw?.ambient_temp_c === "number" ? raw.ambient_temp_c : null,
      ignition: ign === true || ign === 1 ? 1 : ign === false || ign === 0 ? 0 : null,
      rawData: raw,
    };
  });
}

/**
 * Groups records by device, sorted by device time; a record repeated for the same device and
 * timestamp within one payload counts once (the last one sent wins, as a re-send would).
 */
export function groupByDevice(records: readonly TelemetryRecord[]): Map<string, TelemetryRecord[]> {
  const byKey = new Map<string, TelemetryRecord>();
  for (const r of records) byKey.set(`${r.deviceId}\u0000${r.ts.getTime()}`, r);
  const groups = new Map<string, TelemetryRecord[]>();
  for (const r of byKey.values()) {
    const list = groups.get(r.deviceId);
    if (list) list.push(r);
    else groups.set(r.deviceId, [r]);
  }
  for (const list of groups.values()) list.sort((a, b) => a.ts.getTime() - b.ts.getTime());
  return groups;
}

/** What one payload says about a device's master data, ready for the upsert's merge rules. */
export interface DeviceMasterUpdate {
  deviceId: string;
  vin: string;
  make: string | null;
  model: string | null;
  year: number | null;
  powertrain: Powertrain | null;
  powertrainSource: PowertrainSource | null;
  fuelType: string | null;
  batteryKwh: number | null;
  originalPriceEur: number | null;
  contractKm: number | null;
  leaseStart: string | null;
  leaseMonths: number | null;
  assetClass: string | null;
  /** Device time of the newest record that carried `raw_data.vehicle`; null when none did. */
  masterDataAt: Date | null;
  /** Device time of the newest record: the VIN of the newest record wins. */
  latestTs: Date;
  /** The batch's highest odometer reading and its device time (the first record that reached it). */
  odometerMaxKm: number | null;
  odometerMaxAt: Date | null;
  /** Driving-event coverage of the batch (observeDrivingEvents in ./driving-events.ts); null when none. */
  eventsReportedAt: Date | null;
  denseSpeedAt: Date | null;
}

const MASTER_FIELDS = {
  make: "make",
  model: "model",
  year: "year",
  powertrain: "powertrain",
  fuel_type: "fuelType",
  battery_kwh: "batteryKwh",
  original_price_eur: "originalPriceEur",
  contract_km: "contractKm",
  lease_start: "leaseStart",
  lease_months: "leaseMonths",
  asset_class: "assetClass",
} as const satisfies Record<keyof VehicleMasterData, keyof DeviceMasterUpdate>;

/**
 * Merges one device's records (sorted by time) into a master-data update: within the payload a
 * newer record's values overwrite and older ones only fill gaps, like the rule the upsert applies
 * against what is stored.
 */
export function masterUpdateFor(deviceId: string, records: readonly TelemetryRecord[]): DeviceMasterUpdate {
  const latest = records[records.length - 1];
  if (!latest) throw new Error(`masterUpdateFor(${deviceId}): no records`);
  const update: DeviceMasterUpdate = {
    deviceId,
    vin: latest.vin,
    make: null,
    model: null,
    year: null,
    powertrain: null,
    powertrainSource: null,
    fuelType: null,
    batteryKwh: null,
    originalPriceEur: null,
    contractKm: null,
    leaseStart: null,
    leaseMonths: null,
    assetClass: null,
    masterDataAt: null,
    latestTs: latest.ts,
    odometerMaxKm: null,
    odometerMaxAt: null,
    eventsReportedAt: null,
    denseSpeedAt: null,
  };
  const fields = update as unknown as Record<string, unknown>;
  // A one-sample upward spike the next reading falls back from is not the odometer's level (the
  // odometer-integrity detector's rule): later batches are not judged against it.
  const spikes = odometerSpikes(records);
  for (const r of records) {
    const vehicle = r.rawData?.vehicle;
    // Already validated with the body; parse again only to get the typed, trimmed values.
    const parsed = vehicle === undefined || vehicle === null ? undefined : vehicleMasterDataSchema.safeParse(vehicle);
    if (parsed?.success) {
      let carried = false;
      for (const [key, field] of Object.entries(MASTER_FIELDS)) {
        const value = parsed.data[key as keyof VehicleMasterData];
        if (value !== undefined && value !== null) {
          fields[field] = value;
          carried = true;
        }
      }
      if (carried) update.masterDataAt = r.ts;
    }
    if (r.odometerKm !== null && !spikes.has(r) && (update.odometerMaxKm === null || r.odometerKm > update.odometerMaxKm)) {
      update.odometerMaxKm = r.odometerKm;
      update.odometerMaxAt = r.ts;
    }
  }
  if (update.powertrain) update.powertrainSource = "master_data";
  else {
    update.powertrain = inferPowertrain(records);
    update.powertrainSource = update.powertrain ? "inferred" : null;
  }
  return update;
}
