/**
 * Deterministic synthetic OEM telemetry (SPEC 2.17 records) for benchmarks: a fleet of vehicles
 * driving, parking and charging around Finnish cities. The same options always give the same
 * sequence of batches, and every batch advances the fleet's clock, so each batch holds new
 * (device, timestamp) pairs: rows are really inserted, never de-duplicated no-ops.
 */
import type { Powertrain as AnyPowertrain } from "@/lib/vocabulary/powertrain";

/** One record as an OEM sends it (the JSON shape of SPEC 2.17). */
export interface OemRecord {
  vin: string;
  timestamp: string;
  odometer_km: number;
  soc_percent?: number;
  soh_percent?: number;
  fuel_level_pct?: number;
  battery_voltage: number;
  charging_status?: string;
  lat: number;
  lon: number;
  speed_kmh: number;
  dtc_codes?: string[];
  raw_data: {
    ambient_temp_c: number;
    ignition: boolean;
    vehicle?: { make: string; model: string; year: number; powertrain: Powertrain; battery_kwh?: number };
  };
}

/** The benchmark fleet has no full hybrids. */
type Powertrain = Exclude<AnyPowertrain, "HEV">;

/** mulberry32: a small, fast, seedable PRNG (deterministic across runs and machines). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CITIES = [
  { lat: 60.1699, lon: 24.9384 }, // Helsinki
  { lat: 60.2055, lon: 24.6559 }, // Espoo
  { lat: 60.2934, lon: 25.0378 }, // Vantaa
  { lat: 61.4978, lon: 23.761 }, // Tampere
  { lat: 60.4518, lon: 22.2666 }, // Turku
  { lat: 65.0121, lon: 25.4651 }, // Oulu
  { lat: 62.2426, lon: 25.7473 }, // Jyväskylä
  { lat: 60.9827, lon: 25.6612 }, // Lahti
  { lat: 62.8924, lon: 27.677 }, // Kuopio
] as const;

const MODELS: Record<Powertrain, { make: string; model: string; batteryKwh?: number }[]> = {
  BEV: [
    { make: "Volkswagen", model: "ID.4", batteryKwh: 77 },
    { make: "Tesla", model: "Model Y", batteryKwh: 75 },
    { make: "Skoda", model: "Enyaq", batteryKwh: 77 },
    { make: "Kia", model: "EV6", batteryKwh: 77.4 },
  ],
  PHEV: [
    { make: "Toyota", model: "RAV4 Plug-in", batteryKwh: 18.1 },
    { make: "Volvo", model: "XC60 Recharge", batteryKwh: 18.8 },
  ],
  ICE: [
    { make: "Toyota", model: "Corolla" },
    { make: "Ford", model: "Transit Custom" },
    { make: "Volkswagen", model: "Golf" },
  ],
};

interface Vehicle {
  vin: string;
  powertrain: Powertrain;
  make: string;
  model: string;
  year: number;
  batteryKwh?: number;
  /** 1 in 10 vehicles carries its master data in raw_data.vehicle on every record. */
  sendsMasterData: boolean;
  lat: number;
  lon: number;
  heading: number;
  odometerKm: number;
  socPct: number;
  sohPct: number;
  fuelPct: number;
  moving: boolean;
  charging: boolean;
  /** km/h over the last step. */
  speed: number;
  ambientC: number;
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

interface FleetOptions {
  /** Seeds the PRNG; two fleets with the same options produce the same batches. */
  seed: number;
  vehicles: number;
  /** Records per vehicle in each batch (consecutive readings, `stepMs` apart). */
  recordsPerVehicle: number;
  /** 6 characters [A-Z0-9] that make this fleet's VINs unique. */
  vinTag: string;
  /** Device time of the first reading. */
  startMs: number;
  /** Time between two readings of a vehicle. */
  stepMs: number;
}

export class FleetSimulator {
  private readonly rand: () => number;
  private readonly vehicles: Vehicle[];
  private step = 0;

  constructor(private readonly opts: FleetOptions) {
    if (!/^[A-Z0-9]{6}$/.test(opts.vinTag)) throw new Error(`vinTag must be 6 of [A-Z0-9]: ${opts.vinTag}`);
    this.rand = prng(opts.seed);
    this.vehicles = Array.from({ length: opts.vehicles }, (_, i) => this.newVehicle(i));
  }

  /** Records in one batch. */
  get batchSize(): number {
    return this.opts.vehicles * this.opts.recordsPerVehicle;
  }

  /** Device time of the last reading handed out so far. */
  get clockMs(): number {
    return this.opts.startMs + (this.step - 1) * this.opts.stepMs;
  }

  private newVehicle(i: number): Vehicle {
    const r = this.rand;
    const powertrain: Powertrain = r() < 0.6 ? "BEV" : r() < 0.4 ? "PHEV" : "ICE";
    const models = MODELS[powertrain];
    const m = models[Math.floor(r() * models.length)] ?? models[0]!;
    const city = CITIES[Math.floor(r() * CITIES.length)] ?? CITIES[0];
    // WMI-like 3 letters, the fleet's tag (6), a serial (8): 17 characters like a real VIN.
    const vin = `FDB${this.opts.vinTag}${String(i).padStart(8, "0")}`;
    return {
      vin,
      powertrain,
      make: m.make,
      model: m.model,
      year: 2019 + Math.floor(r() * 7),
      batteryKwh: m.batteryKwh,
      sendsMasterData: i % 10 === 0,
      lat: city.lat + (r() - 0.5) * 0.2,
      lon: city.lon + (r() - 0.5) * 0.4,
      heading: r() * 2 * Math.PI,
      odometerKm: 5_000 + r() * 120_000,
      socPct: 30 + r() * 65,
      sohPct: 86 + r() * 13,
      fuelPct: 20 + r() * 75,
      moving: r() < 0.5,
      charging: false,
      speed: 0,
      ambientC: -8 + r() * 20,
    };
  }

  private advance(v: Vehicle, dtHours: number): void {
    const r = this.rand;
    if (v.charging) {
      v.socPct = Math.min(90, v.socPct + 40 * dtHours * (50 / (v.batteryKwh ?? 50)));
      if (v.socPct >= 90) v.charging = false;
    } else if (r() < 0.1) {
      v.moving = !v.moving;
    }
    v.speed = v.moving && !v.charging ? 25 + r() * 85 : 0;
    const km = v.speed * dtHours;
    v.odometerKm += km;
    v.heading += (r() - 0.5) * 0.6;
    v.lat = Math.min(69.9, Math.max(59.8, v.lat + (km / 111) * Math.cos(v.heading)));
    v.lon = Math.min(31.5, Math.max(20.6, v.lon + (km / (111 * Math.cos((v.lat * Math.PI) / 180))) * Math.sin(v.heading)));
    if (v.powertrain !== "ICE") {
      v.socPct = Math.max(0, v.socPct - km * (v.powertrain === "BEV" ? 0.2 : 0.5));
      if (v.socPct < 20 && !v.moving) v.charging = true;
    }
    if (v.powertrain !== "BEV") {
      v.fuelPct = Math.max(0, v.fuelPct - km * (v.powertrain === "ICE" ? 0.12 : 0.05));
      if (v.fuelPct < 12) v.fuelPct = 95; // refuelled
    }
    v.ambientC = Math.min(30, Math.max(-30, v.ambientC + (r() - 0.5) * 0.2));
  }

  private record(v: Vehicle, tsMs: number): OemRecord {
    const speed = v.speed;
    const rec: OemRecord = {
      vin: v.vin,
      timestamp: new Date(tsMs).toISOString(),
      odometer_km: round(v.odometerKm, 1),
      battery_voltage: round(speed > 0 ? 13.8 + this.rand() * 0.5 : 12.5 + this.rand() * 0.25, 2),
      lat: round(v.lat, 5),
      lon: round(v.lon, 5),
      speed_kmh: round(speed, 1),
      raw_data: { ambient_temp_c: round(v.ambientC, 1), ignition: speed > 0 },
    };
    if (v.powertrain !== "ICE") {
      rec.soc_percent = round(v.socPct, 1);
      rec.soh_percent = round(v.sohPct, 1);
      rec.charging_status = v.charging ? "charging" : "not_charging";
    }
    if (v.powertrain !== "BEV") rec.fuel_level_pct = round(v.fuelPct, 1);
    if (this.rand() < 0.002) rec.dtc_codes = [v.powertrain === "ICE" ? "P0420" : "P0A80"];
    if (v.sendsMasterData) {
      rec.raw_data.vehicle = { make: v.make, model: v.model, year: v.year, powertrain: v.powertrain };
      if (v.batteryKwh !== undefined) rec.raw_data.vehicle.battery_kwh = v.batteryKwh;
    }
    return rec;
  }

  /**
   * The next batch: `recordsPerVehicle` consecutive readings of every vehicle, ordered by time
   * (all vehicles' first reading, then all second readings, ...), as a telematics gateway
   * flushing its buffer would send them.
   */
  nextBatch(): OemRecord[] {
    const out: OemRecord[] = [];
    const dtHours = this.opts.stepMs / 3_600_000;
    for (let k = 0; k < this.opts.recordsPerVehicle; k++) {
      const ts = this.opts.startMs + this.step * this.opts.stepMs;
      this.step++;
      for (const v of this.vehicles) {
        this.advance(v, dtHours);
        out.push(this.record(v, ts));
      }
    }
    return out;
  }
}
