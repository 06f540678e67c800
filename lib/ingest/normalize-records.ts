import { above } from "@/lib/detectors/common";
import { isOdometerSpike, ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import type { FeedBody } from "@/lib/ingest/adapters/adapt-feed";
import type { IngestBody, VehicleMasterData } from "@/lib/schemas/ingest";
import { vehicleMasterDataSchema } from "@/lib/schemas/ingest";
import { inferPowertrain, type Powertrain, type PowertrainSource } from "@/lib/vocabulary/powertrain";

/**
 * SPEC 2.17 records → FDP telemetry records, with CONTRACT's defaults and mappings. A feed's records
 * (lib/ingest/adapters/) always name their device and may lack a VIN; endpoint 16's always carry one.
 */
export function toTelemetryRecords(body: IngestBody | FeedBody, receivedAt: Date): TelemetryRecord[] {
  const vehicles: readonly (IngestBody["vehicles"][number] | FeedBody["vehicles"][number])[] = body.vehicles;
  return vehicles.map((v) => {
    const raw = v.raw_data ?? null;
    const ign = raw?.ignition;
    return {
      deviceId: v.device_id ?? `oem-${v.vin ?? ""}`,
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
  // Per device, by time: a repeated timestamp keeps its first position and takes the last record.
  const byDevice = new Map<string, Map<number, TelemetryRecord>>();
  for (const r of records) {
    const times = byDevice.get(r.deviceId);
    if (times) times.set(r.ts.getTime(), r);
    else byDevice.set(r.deviceId, new Map([[r.ts.getTime(), r]]));
  }
  const groups = new Map<string, TelemetryRecord[]>();
  for (const [id, times] of byDevice) {
    const list = [...times.values()];
    if (list.length > 1) list.sort((a, b) => a.ts.getTime() - b.ts.getTime());
    groups.set(id, list);
  }
  return groups;
}

/** What one payload says about a device's master data, ready for the upsert's merge rules. */
export interface DeviceMasterUpdate {
  deviceId: string;
  /** The batch's latest reported VIN; null when none of its records reports one (the stored VIN stays). */
  vin: string | null;
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
  /**
   * The batch's highest confirmed odometer reading and its device time (the first record that reached
   * it): see `confirmedOdometerMax`. The device's stored state (`previous`) is among the candidates once
   * this batch confirms it.
   */
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
 * The highest odometer reading a batch confirms, the device's `odometer_max_km` candidate. A reading is the
 * odometer's level only once the next reading confirms it: a one-sample spike (isOdometerSpike: the next
 * reading falls back from it to near the reading before it, whatever the speed the rise implies) never
 * counts, and the batch's last reading waits for the next batch. Otherwise a spike at a batch's end would
 * become the level every later reading is judged against (a false rollback), while the knockout's SQL,
 * which sees the whole history, excludes it. A reading the next one falls far below (a possible rollback)
 * is the level that drop is judged against and counts. `previous` (the device's stored state) is judged
 * with the batch: it counts once a later reading of the batch confirms it, or falls below it without
 * making it a spike; the device's stored maximum (`storedMax`, when older) stands for the reading before
 * it (without one, a fall-back from it keeps it out). Records sorted by time.
 */
export function confirmedOdometerMax(
  records: readonly TelemetryRecord[],
  previous: DeviceContext["previous"],
  storedMax: DeviceContext["odometerMax"] = null,
): { km: number; at: Date } | null {
  const batchTimes = new Set(records.map((r) => r.ts.getTime()));
  const seq = records.flatMap((r) => (r.odometerKm !== null && Number.isFinite(r.odometerKm) ? [{ km: r.odometerKm, ts: r.ts }] : []));
  const prevKm = previous?.odometerKm ?? null;
  if (previous && prevKm !== null && Number.isFinite(prevKm) && !batchTimes.has(previous.ts.getTime())) seq.push({ km: prevKm, ts: previous.ts });
  seq.sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const stored = storedMax && storedMax.ts.getTime() < (seq[0]?.ts.getTime() ?? Number.NEGATIVE_INFINITY) ? { km: storedMax.km, ts: storedMax.ts } : undefined;
  let max: { km: number; at: Date } | null = null;
  for (let i = 0; i < seq.length; i++) {
    const x = seq[i]!;
    const xMs = x.ts.getTime();
    // The first later reading, and the last earlier one (the device's stored maximum before the first).
    let next: { km: number; ts: Date } | undefined;
    for (let j = i + 1; j < seq.length && next === undefined; j++) if (seq[j]!.ts.getTime() > xMs) next = seq[j];
    if (next === undefined) continue; // unconfirmed yet: the next batch judges it
    let before: { km: number; ts: Date } | undefined;
    for (let j = i - 1; j >= 0 && before === undefined; j--) if (seq[j]!.ts.getTime() < xMs) before = seq[j];
    before ??= stored;
    const fellBack = above(x.km - next.km, ROLLBACK_TOLERANCE_KM);
    // A reading with nothing before it is the level (as the detector and the knockout SQL read it):
    // without an earlier reading a fall after it cannot be told from a clocking.
    if (fellBack && before !== undefined && isOdometerSpike(before.km, x.km, next.km)) continue;
    if (max === null || x.km > max.km) max = { km: x.km, at: x.ts };
  }
  return max;
}

/**
 * Merges one device's records (sorted by time) into a master-data update: within the payload a
 * newer record's values overwrite and older ones only fill gaps, like the rule the upsert applies
 * against what is stored.
 */
export function masterUpdateFor(
  deviceId: string,
  records: readonly TelemetryRecord[],
  previous: DeviceContext["previous"],
  storedMax: DeviceContext["odometerMax"] = null,
): DeviceMasterUpdate {
  const latest = records[records.length - 1];
  if (!latest) throw new Error(`masterUpdateFor(${deviceId}): no records`);
  const update: DeviceMasterUpdate = {
    deviceId,
    vin: records.findLast((r) => r.vin !== null)?.vin ?? null,
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
  }
  const max = confirmedOdometerMax(records, previous, storedMax);
  update.odometerMaxKm = max?.km ?? null;
  update.odometerMaxAt = max?.at ?? null;
  if (update.powertrain) update.powertrainSource = "master_data";
  else {
    update.powertrain = inferPowertrain(records);
    update.powertrainSource = update.powertrain ? "inferred" : null;
  }
  return update;
}
