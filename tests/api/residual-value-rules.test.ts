import { beforeAll, describe, expect, it } from "vitest";
import { loadResidualValues } from "@/lib/leasing/get-residual-value";
import { curveRetention, expectedSohPct, KNOCKOUT_PENALTY_PCT, RESIDUAL_RULES_VERSION } from "@/lib/leasing/residual-value-rules";
import type { z } from "zod";
import { residualValueSchema, type ResidualValueBody } from "@/lib/schemas/leasing-residual";
import { batteryHealthSnapshotSchema, eolSummarySchema, scoresBatchResponseSchema, vehicleHealthScoreSchema } from "@/lib/schemas/scores-device";
import { createTenantWithKey } from "../helpers/fixtures";
import { DAY, HOUR, MIN, iso, type Rec, useIngestServer, vinSequence } from "../helpers/ingest-api";

/**
 * Endpoint 10 end to end: histories with a known truth pushed through POST /oem/ingest, then
 * GET /vehicles/{device_id}/residual-value. The truth: a BEV whose lease started 36 months ago, at the
 * curve's normal mileage (45,000 km) with the expected SoH for its age, is worth the calibration
 * point (Autovista's 47 %) give or take its bounded score adjustments; the others are worse by rule.
 */

const server = useIngestServer();
const newVin = vinSequence("KNARVRULES0");
/** Five days ago on the whole minute. */
const BASE = Math.floor((Date.now() - 5 * DAY) / MIN) * MIN;

/** The day 36 months and 15 days ago (YYYY-MM-DD): 36 whole months whatever today's date. */
function leaseStart36MonthsAgo(): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - 15);
  d.setUTCFullYear(d.getUTCFullYear() - 3);
  return d.toISOString().slice(0, 10);
}
const LEASE_START = leaseStart36MonthsAgo();

/** The day `months` months and 15 days ago (YYYY-MM-DD): exactly that many whole months whatever today's date. */
function leaseStartMonthsAgo(months: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - 15);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}
const YEAR = Number(LEASE_START.slice(0, 4));

/**
 * One daily trip of eight samples 10 minutes apart (70 minutes at 60 km/h, +10 km per sample, −1 °C,
 * driving events reported: none) for each of `days` days, ending at `endKm`; every record carries
 * `soh` and the master data `vehicle` (when given). Enough driving for a measured fleet risk.
 */
const PER_TRIP = 8;
function trips(vin: string, days: number, endKm: number, soh: number | null, vehicle: Rec | null): Rec[] {
  const n = days * PER_TRIP;
  return Array.from({ length: n }, (_, i) => ({
    vin,
    timestamp: iso(BASE + Math.floor(i / PER_TRIP) * DAY + 8 * HOUR + (i % PER_TRIP) * 10 * MIN),
    speed_kmh: 60,
    soc_percent: 80 - (i % PER_TRIP) * 2,
    odometer_km: endKm - (n - 1 - i) * 10,
    ...(soh !== null ? { soh_percent: soh } : {}),
    raw_data: { ignition: true, events: [], ambient_temp_c: -1, ...(vehicle ? { vehicle } : {}) },
  }));
}

const bevMaster = (over: Rec = {}): Rec => ({
  make: "Volkswagen",
  model: "ID.3",
  powertrain: "BEV",
  year: YEAR,
  lease_start: LEASE_START,
  battery_kwh: 58,
  original_price_eur: 40_000,
  ...over,
});

/** Every SPEC 2.9 field with its type, checked one by one (not only through the schema). */
function expectSpecShape(b: Record<string, unknown>): void {
  expect(typeof b.device_id).toBe("string");
  expect(b.estimation_method).toBe(RESIDUAL_RULES_VERSION);
  expect(b.estimation_method).toMatch(/^rv-rules-\d{4}\.\d{2}$/);
  expect(typeof b.estimated_residual_pct).toBe("number");
  expect(b.estimated_residual_pct as number).toBeGreaterThanOrEqual(0);
  expect(b.estimated_residual_pct as number).toBeLessThanOrEqual(100);
  expect(b.estimated_residual_eur === null || typeof b.estimated_residual_eur === "number").toBe(true);
  expect(["low", "medium", "high"]).toContain(b.confidence);
  const f = b.factors as Record<string, unknown>;
  expect(f.age_months === null || Number.isInteger(f.age_months)).toBe(true);
  expect(typeof f.mileage_km).toBe("number");
  for (const k of ["battery_soh_pct", "vehicle_health_score", "fleet_risk_score", "green_fleet_score"]) {
    expect(f[k] === null || typeof f[k] === "number", k).toBe(true);
  }
  expect(f.eol_grade === null || ["A", "B", "C", "D", "F"].includes(f.eol_grade as string)).toBe(true);
  const c = b.depreciation_curve as Record<string, unknown>;
  expect(typeof c.method).toBe("string");
  for (const k of ["annual_rate_pct", "battery_penalty_pct", "mileage_penalty_pct"]) expect(typeof c[k], k).toBe("number");
  const q = b.data_quality as Record<string, unknown>;
  expect(typeof q.completeness_pct).toBe("number");
  expect(Array.isArray(q.missing_fields) && (q.missing_fields as unknown[]).every((x) => typeof x === "string")).toBe(true);
  expect(typeof b.disclaimer).toBe("string");
  expect(b.disclaimer).toContain("not a valuation");
  expect(b.generated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  expect(residualValueSchema.safeParse(b).success).toBe(true);
}

describe("GET /vehicles/{device_id}/residual-value", () => {
  let t: Awaited<ReturnType<typeof createTenantWithKey>>;
  let other: Awaited<ReturnType<typeof createTenantWithKey>>;
  const ids = { calib: "", worse: "", sohKo: "", clocked: "", bare: "" };

  async function get(id: string, key = t.key): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await server.app.fetch(`/api/v1/vehicles/${id}/residual-value`, { key });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  async function rv(id: string): Promise<ResidualValueBody> {
    const { status, body } = await get(id);
    expect(status, JSON.stringify(body)).toBe(200);
    expectSpecShape(body);
    return residualValueSchema.parse(body);
  }

  beforeAll(async () => {
    t = await createTenantWithKey(server.tdb.handle.db, { name: "Residual value rules" });
    other = await createTenantWithKey(server.tdb.handle.db, { name: "Residual value rules, other tenant" });
    const expected = expectedSohPct(36);
    const v = { calib: newVin(), worse: newVin(), sohKo: newVin(), clocked: newVin(), bare: newVin() };
    for (const k of Object.keys(v) as (keyof typeof v)[]) ids[k] = `oem-${v[k]}`;
    await server.ingestAs(t, [
      ...trips(v.calib, 4, 45_000, expected, bevMaster()),
      ...trips(v.worse, 4, 75_000, 80, bevMaster({ original_price_eur: null })),
      ...trips(v.sohKo, 4, 45_000, 55, bevMaster()),
      ...trips(v.bare, 4, 30_000, 95, null),
    ]);
    // A clocked odometer: 80,200 km, then 15,000 and on (the EOL/TAS knockout).
    const km = [80_000, 80_100, 80_200, 15_000, 15_040, 15_080];
    await server.ingestAs(
      t,
      km.map((odometer_km, i) => ({
        vin: v.clocked,
        timestamp: iso(BASE + i * HOUR),
        speed_kmh: 0,
        soc_percent: 70,
        odometer_km,
        soh_percent: 92,
        raw_data: { ignition: false, vehicle: bevMaster() },
      })),
    );
  });

  it("the calibration vehicle: every SPEC 2.9 field, 47 % ± its bounded score adjustments, euros from the price", async () => {
    const b = await rv(ids.calib);
    expect(b.device_id).toBe(ids.calib);
    expect(b.factors.age_months).toBe(36);
    expect(b.data_quality.age_basis).toBe("lease_start");
    expect(b.factors.mileage_km).toBe(45_000);
    expect(b.factors.battery_soh_pct).toBe(expectedSohPct(36));
    expect(b.depreciation_curve.mileage_penalty_pct).toBe(0);
    expect(b.depreciation_curve.battery_penalty_pct).toBe(0);
    expect(b.knockouts).toEqual([]);
    expect(b.adjustments.knockout_penalty_pct).toBe(0);
    expect(Math.abs(b.adjustments.total_pct)).toBeLessThanOrEqual(6);
    expect(b.estimated_residual_pct).toBeCloseTo(100 * curveRetention(36) * (1 + b.adjustments.total_pct / 100), 1);
    expect(b.estimated_residual_eur).toBe(Math.round((40_000 * b.estimated_residual_pct) / 100));
    expect(b.data_quality.missing_fields).not.toContain("original_price_eur");
    expect(b.confidence).not.toBe("low");
  });

  it("the factors are the vehicle's own scores, as the score endpoints answer them", async () => {
    const b = await rv(ids.calib);
    const call = async <S extends z.ZodType>(schema: S, path: string, init: { method?: string; body?: string } = {}): Promise<z.output<S>> => {
      const res = await server.app.fetch(`/api/v1${path}`, { key: t.key, headers: { "content-type": "application/json" }, ...init });
      expect(res.status).toBe(200);
      return schema.parse(await res.json());
    };
    const vh = await call(vehicleHealthScoreSchema, `/scores/vehicle-health/${ids.calib}`);
    const eol = await call(eolSummarySchema, `/vehicles/${ids.calib}/eol-summary`);
    const battery = await call(batteryHealthSnapshotSchema, `/vehicles/${ids.calib}/battery-health-snapshot`);
    const batch = await call(scoresBatchResponseSchema, "/scores/batch", {
      method: "POST",
      body: JSON.stringify({ device_ids: [ids.calib], scores: ["fleet_risk", "green_fleet"] }),
    });
    const item = batch.results[0]!;
    expect(b.factors.vehicle_health_score).toBe(vh.vehicle_health_score);
    expect(b.factors.eol_grade).toBe(eol.condition_grade);
    expect(b.factors.battery_soh_pct).toBe(battery.data_quality.soh_pct);
    // It drove enough in the window for a measured fleet risk (confidence not low), so that score is used.
    if (!("fleet_risk" in item) || !item.fleet_risk || !item.green_fleet) throw new Error(`no fleet scores: ${JSON.stringify(item)}`);
    expect(item.fleet_risk.confidence).not.toBe("low");
    expect(b.factors.fleet_risk_score).toBe(item.fleet_risk.fleet_risk_score);
    expect(b.factors.green_fleet_score).toBe(item.green_fleet.green_fleet_score);
  });

  it("older-for-its-mileage, lower SoH: lower; no price: euros null and named missing", async () => {
    const calib = await rv(ids.calib);
    const b = await rv(ids.worse);
    expect(b.estimated_residual_eur).toBeNull();
    expect(b.data_quality.missing_fields).toContain("original_price_eur");
    expect(b.data_quality.completeness_pct).toBeLessThan(100);
    expect(b.factors.mileage_km).toBe(75_000);
    // 30,000 km above the normal 45,000: 0.4 % per 1,000 km.
    expect(b.depreciation_curve.mileage_penalty_pct).toBe(12);
    // 13.1 SoH points below the expected 93.1 %: 0.5 % per point (Autovista).
    expect(b.depreciation_curve.battery_penalty_pct).toBeCloseTo(0.5 * (expectedSohPct(36) - 80), 2);
    expect(b.estimated_residual_pct).toBeLessThan(calib.estimated_residual_pct);
  });

  it("a knocked-out battery (SoH 55 %): EOL F, knockout penalty, confidence low", async () => {
    const calib = await rv(ids.calib);
    const b = await rv(ids.sohKo);
    expect(b.factors.eol_grade).toBe("F");
    expect(b.knockouts).toEqual(["soh_below_60"]);
    expect(b.adjustments.knockout_penalty_pct).toBe(KNOCKOUT_PENALTY_PCT);
    expect(b.confidence).toBe("low");
    expect(b.factors.battery_soh_pct).toBe(55);
    expect(b.depreciation_curve.battery_penalty_pct).toBeCloseTo(0.5 * (expectedSohPct(36) - 55), 2);
    // Battery penalty and knockout together: well under the calibration vehicle.
    expect(b.estimated_residual_pct).toBeLessThan(calib.estimated_residual_pct * 0.8 * 0.85);
  });

  it("a clocked odometer: valued on the highest earlier reading, knockout penalty, confidence low", async () => {
    const b = await rv(ids.clocked);
    expect(b.knockouts).toEqual(["odometer_manipulation"]);
    expect(b.factors.eol_grade).toBe("F");
    expect(b.factors.mileage_km).toBe(80_200);
    expect(b.adjustments.knockout_penalty_pct).toBe(KNOCKOUT_PENALTY_PCT);
    expect(b.confidence).toBe("low");
  });

  it("without master data: age from the mileage, named missing, confidence low", async () => {
    const b = await rv(ids.bare);
    expect(b.factors.age_months).toBeNull();
    expect(b.data_quality.age_basis).toBe("mileage");
    expect(b.data_quality.missing_fields).toEqual(expect.arrayContaining(["age_months", "original_price_eur"]));
    expect(b.estimated_residual_eur).toBeNull();
    expect(b.confidence).toBe("low");
  });

  it("404 for another tenant's device and for an unknown one; 403 without predictions:read", async () => {
    const foreign = await get(ids.calib, other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("not_found");
    expect((await get("no-such-device")).status).toBe(404);
    const scoresOnly = await createTenantWithKey(server.tdb.handle.db, { scopes: ["scores:read"] });
    expect((await get(ids.calib, scoresOnly.key)).status).toBe(403);
  });

  it("the batch function answers every device of the tenant in three round trips, as the endpoint does", async () => {
    const queries: string[] = [];
    const now = new Date();
    const all = Object.values(ids);
    const map = await loadResidualValues({ ctx: { db: server.tdb.handle.db, tenantId: t.tenantId }, deviceIds: [...all, "no-such-device"], now, onQuery: (l) => queries.push(l) });
    expect(queries).toHaveLength(3);
    expect([...map.keys()].sort()).toEqual([...all].sort());
    for (const id of all) {
      const { generated_at: _a, ...fromEndpoint } = await rv(id);
      const { generated_at: _b, ...fromBatch } = map.get(id)!;
      expect(fromBatch).toEqual(fromEndpoint);
    }
    // Another tenant's batch sees none of them.
    const foreign = await loadResidualValues({ ctx: { db: server.tdb.handle.db, tenantId: other.tenantId }, deviceIds: all, now });
    expect(foreign.size).toBe(0);
  });
});

describe("the constructed vehicles of issue 27 through the endpoint (rv-rules-2027.01 valued 72 months at 140,000 and 300,000 km the same)", () => {
  let t: Awaited<ReturnType<typeof createTenantWithKey>>;
  const cars = {
    y1soh95: { months: 12, km: 10_000, soh: 95 as number | null },
    y1soh75: { months: 12, km: 10_000, soh: 75 },
    y6km15k: { months: 72, km: 15_000, soh: null },
    y6km140k: { months: 72, km: 140_000, soh: null },
    y6km200k: { months: 72, km: 200_000, soh: null },
    y6km300k: { months: 72, km: 300_000, soh: null },
    y1km65k: { months: 12, km: 65_000, soh: 95 },
    y1km150k: { months: 12, km: 150_000, soh: 95 },
  };
  const ids: Record<string, string> = {};
  const answers: Record<string, ResidualValueBody> = {};

  beforeAll(async () => {
    t = await createTenantWithKey(server.tdb.handle.db, { name: "Residual value rules, constructed vehicles" });
    const records: Rec[] = [];
    for (const [name, c] of Object.entries(cars)) {
      const vin = newVin();
      ids[name] = `oem-${vin}`;
      const start = leaseStartMonthsAgo(c.months);
      records.push(...trips(vin, 2, c.km, c.soh, bevMaster({ lease_start: start, year: Number(start.slice(0, 4)) })));
    }
    await server.ingestAs(t, records);
    for (const name of Object.keys(cars)) {
      const res = await server.app.fetch(`/api/v1/vehicles/${ids[name]}/residual-value`, { key: t.key });
      expect(res.status).toBe(200);
      answers[name] = residualValueSchema.parse(await res.json());
    }
  });

  it("reads each car as constructed: its age, odometer and SoH (or none)", () => {
    for (const [name, c] of Object.entries(cars)) {
      const a = answers[name]!;
      expect(a.factors.age_months, name).toBe(c.months);
      expect(a.factors.mileage_km, name).toBe(c.km);
      expect(a.factors.battery_soh_pct, name).toBe(c.soh);
      expect(a.estimation_method).toBe("rv-rules-2027.02");
    }
  });

  it("the lower SoH values lower; the 6-year-old car far lower than the 1-year-old one", () => {
    const [a, b, c] = [answers.y1soh95!, answers.y1soh75!, answers.y6km15k!];
    expect(b.estimated_residual_pct).toBeLessThan(a.estimated_residual_pct);
    expect(b.depreciation_curve.battery_penalty_pct - a.depreciation_curve.battery_penalty_pct).toBeCloseTo(0.5 * 20, 1);
    expect(c.estimated_residual_pct).toBeLessThan(b.estimated_residual_pct - 15);
  });

  it("no mileage cliff: 140,000 > 200,000 > 300,000 km at 6 years, and 65,000 > 150,000 km at 1 year", () => {
    const six = [answers.y6km140k!, answers.y6km200k!, answers.y6km300k!];
    expect(six[1]!.estimated_residual_pct).toBeLessThan(six[0]!.estimated_residual_pct);
    expect(six[2]!.estimated_residual_pct).toBeLessThan(six[1]!.estimated_residual_pct);
    // 50,000, 110,000 and 210,000 km above the normal 90,000: 20 %, then 0.2 % of the rest per further 1,000 km.
    const beyond = (k: number) => Math.round(100 * 100 * (1 - 0.8 * 0.998 ** k)) / 100;
    expect(six.map((r) => r.depreciation_curve.mileage_penalty_pct)).toEqual([20, beyond(60), beyond(160)]);
    expect(answers.y1km150k!.estimated_residual_pct).toBeLessThan(answers.y1km65k!.estimated_residual_pct);
  });

  it("a SoH not measured: no battery adjustment, said in the answer, never high confidence", () => {
    const c = answers.y6km15k!;
    expect(c.depreciation_curve.battery_penalty_pct).toBe(0);
    expect(c.data_quality.battery_soh_status).toBe("not_measured");
    expect(c.data_quality.missing_fields).toContain("battery_soh_pct");
    expect(c.data_quality.notes.join(" ")).toMatch(/state of health not measured/);
    expect(c.confidence).not.toBe("high");
    expect(answers.y1soh95!.data_quality.battery_soh_status).toBe("measured");
  });
});
