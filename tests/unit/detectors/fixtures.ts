import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";

/** Test data builders for the detectors. Times are UTC; the day is an ordinary Tuesday in November. */

const DAY = "2026-11-17";
export const T0 = new Date(`${DAY}T00:00:00Z`).getTime();
export const MIN = 60_000;
const HOUR = 60 * MIN;

const at = (ms: number) => new Date(ms);
/** A time on the test day, e.g. t("07:30"), t("07:30:59"). */
export const t = (hhmm: string) => new Date(`${DAY}T${hhmm.length === 5 ? `${hhmm}:00` : hhmm}Z`);

export function rec(overrides: Partial<TelemetryRecord> & { ts: Date }): TelemetryRecord {
  return {
    deviceId: "dev-1",
    vin: "WVWZZZE1ZNP000001",
    odometerKm: null,
    socPct: null,
    sohPct: null,
    batteryVoltage: null,
    chargingStatus: null,
    chargingPowerKw: null,
    lat: 60.1699,
    lon: 24.9384,
    speedKmh: null,
    fuelLevelPct: null,
    engineHours: null,
    dtcCodes: null,
    weatherTemp: -2,
    ignition: null,
    rawData: null,
    ...overrides,
  };
}

export function ctx(overrides: Partial<DeviceContext> = {}): DeviceContext {
  return { deviceId: "dev-1", powertrain: "BEV", batteryKwh: 77, previous: null, odometerMax: null, ...overrides };
}

/**
 * A realistic normal day of a BEV (77 kWh, SoH 92 %): parked overnight at 12.6 V, a morning commute
 * with a motorway stretch (up to ~118 km/h), parked at work, the evening commute, then home charging
 * at 11 kW until full, "complete" afterwards. SOC falls while driving and rises while charging;
 * the odometer only moves forward. Records every 5 min while driving or charging, 2 h when parked.
 */
export function normalBevDay(deviceId = "dev-1"): { device: DeviceContext; records: TelemetryRecord[] } {
  const records: TelemetryRecord[] = [];
  let odo = 41_250.3;
  let soc = 78;
  const soh = 92;
  const base = { deviceId, sohPct: soh, dtcCodes: [] as string[] };
  const parked = (ms: number, v: number, status: string | null = "not_charging") =>
    records.push(
      rec({
        ...base,
        ts: at(ms),
        odometerKm: round(odo),
        socPct: round(soc),
        batteryVoltage: v,
        speedKmh: 0,
        ignition: 0,
        chargingStatus: status,
        chargingPowerKw: status === null ? null : 0,
      }),
    );
  const drive = (startMs: number, speeds: number[]) => {
    speeds.forEach((s, i) => {
      odo += (s * 5) / 60;
      soc -= ((((s * 5) / 60) * 0.17) / 77) * 100; // ~17 kWh/100 km
      records.push(
        rec({ ...base, ts: at(startMs + i * 5 * MIN), odometerKm: round(odo), socPct: round(soc), batteryVoltage: 14.1, speedKmh: s, ignition: 1, chargingStatus: null }),
      );
    });
  };
  parked(T0 + 0 * HOUR, 12.62);
  parked(T0 + 2 * HOUR, 12.6);
  parked(T0 + 4 * HOUR, 12.58);
  parked(T0 + 6 * HOUR, 12.57);
  drive(T0 + 7 * HOUR + 30 * MIN, [32, 48, 75, 104, 112, 118, 116, 96, 54, 38]);
  parked(T0 + 8 * HOUR + 25 * MIN, 12.72, null);
  parked(T0 + 10 * HOUR + 25 * MIN, 12.63, null);
  parked(T0 + 12 * HOUR + 25 * MIN, 12.61, null);
  parked(T0 + 14 * HOUR + 25 * MIN, 12.6, null);
  drive(T0 + 16 * HOUR + 30 * MIN, [30, 45, 70, 108, 117, 119, 110, 85, 52, 35, 22]);
  // Home charging at 11 kW (three-phase 16 A wallbox) from 17:30.
  const kwhPerStep = (11 * 5) / 60;
  let ms = T0 + 17 * HOUR + 30 * MIN;
  while (soc < 90) {
    records.push(
      rec({ ...base, ts: at(ms), odometerKm: round(odo), socPct: round(soc), batteryVoltage: 13.5, speedKmh: 0, ignition: 0, chargingStatus: "charging", chargingPowerKw: 11 }),
    );
    soc = Math.min(90, soc + (kwhPerStep / 77) * 100);
    ms += 5 * MIN;
  }
  parked(ms, 13.4, "complete");
  parked(ms + 2 * HOUR, 12.65, "complete");
  return {
    device: ctx({ deviceId, previous: { ts: at(T0 - 2 * HOUR), odometerKm: 41_250.3, socPct: 78, sohPct: 92 }, odometerMax: { km: 41_250.3, ts: at(T0 - 2 * HOUR) } }),
    records,
  };
}

/** The same day for a diesel van: fuel level instead of SOC, no SoH, no charging. */
export function normalIceDay(deviceId = "dev-ice"): { device: DeviceContext; records: TelemetryRecord[] } {
  const { records } = normalBevDay(deviceId);
  const ice = records
    .filter((r) => r.chargingStatus !== "charging")
    .map((r, i) => ({ ...r, socPct: null, sohPct: null, chargingStatus: null, chargingPowerKw: null, fuelLevelPct: round(64 - i * 0.4), engineHours: round(3120 + i * 0.08) }));
  return {
    device: ctx({
      deviceId,
      powertrain: "ICE",
      batteryKwh: null,
      previous: { ts: at(T0 - 2 * HOUR), odometerKm: 41_250.3, socPct: null, sohPct: null },
      odometerMax: { km: 41_250.3, ts: at(T0 - 2 * HOUR) },
    }),
    records: ice,
  };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** Deterministic PRNG (mulberry32) for generated cases. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic shuffle (copy). */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const r = prng(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

/** A deep copy that keeps Dates as Dates, to check inputs are not mutated. */
export function clone<T>(x: T): T {
  return structuredClone(x);
}
