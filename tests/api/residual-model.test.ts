import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { CURRENT_RESIDUAL_MODEL } from "@/lib/leasing/residual-model/current-model";
import { confidenceOf, predictResidual } from "@/lib/leasing/residual-model/predict";
import { INPUT_NAMES, residualValuePredictionSchema } from "@/lib/schemas/leasing-residual-model";
import { createTenant } from "@/lib/tenants/create-tenant";
import { DAY, HOUR, iso, type Rec, useIngestServer, vinSequence } from "../helpers/ingest-api";

/**
 * Endpoint 20 end to end: telemetry and master data through the real ingest (POST /oem/ingest), then
 * GET /predict/residual-value/{id} over HTTP, against the truth the model file gives for those inputs.
 */

const server = useIngestServer();
type Tenant = { tenantId: string; ingestSecret: string; key: string; keyId: string };
let entitled: Tenant;
let plain: Tenant;
const newVin = vinSequence("KNAREZ00000");
/** 36.5 average months ago: the lease start gives an age of exactly 36 whole months whatever the time of day. */
const LEASE_START = new Date(Date.now() - 36.5 * 30.4375 * DAY).toISOString().slice(0, 10);
const BASE = Date.now() - 5 * DAY;

async function tenantWith(name: string, entitlements: string[]): Promise<Tenant> {
  const db = server.tdb.handle.db;
  const { tenantId, ingestSecret } = await createTenant({ ctx: { db }, input: { name, entitlements } });
  const { key, keyId } = await createApiKey({ ctx: { db }, input: { tenantId } });
  return { tenantId, ingestSecret, key, keyId };
}

/** Four daily records of one vehicle: odometer up to `lastKm`, SoH readings `soh` (the last may be a BMS 0). */
function vehicleRecords(vin: string, vehicle: Rec, odometer: number[] | null, soh: (number | null)[]): Rec[] {
  return soh.map((s, i) => ({
    vin,
    timestamp: iso(BASE + i * DAY + 3 * HOUR),
    speed_kmh: 0,
    soc_percent: 70,
    ...(odometer ? { odometer_km: odometer[i] } : {}),
    ...(s !== null ? { soh_percent: s } : {}),
    raw_data: { ignition: false, vehicle },
  }));
}

const KIA = { make: "Kia", model: "EV6", year: 2023, powertrain: "BEV", battery_kwh: 77.4, original_price_eur: 50_000, lease_start: LEASE_START };
let priced: string;
let unpriced: string;
let bare: string;
let clocked: string;

beforeAll(async () => {
  entitled = await tenantWith("Residual entitled", ["residual_factors"]);
  plain = await tenantWith("Residual plain", []);
  const v1 = newVin();
  const v2 = newVin();
  const v3 = newVin();
  // The same vehicle for both tenants: odometer ending at 60,000 km, SoH 92 % and a last BMS "0" that the plausibility rule sets aside.
  const kia = vehicleRecords(v1, KIA, [59_700, 59_800, 59_900, 60_000], [92, 92, 92, 0]);
  await server.ingestAs(entitled, kia);
  await server.ingestAs(plain, kia);
  // No price in the master data.
  await server.ingestAs(entitled, vehicleRecords(v2, { ...KIA, original_price_eur: null }, [30_000, 30_100, 30_200, 30_300], [95, 95, 95, 95]));
  // A PHEV with only make/model/powertrain: no age, odometer or SoH known.
  await server.ingestAs(entitled, vehicleRecords(v3, { make: "Toyota", model: "RAV4 PHEV", powertrain: "PHEV" }, null, [null, null, null, null]));
  // A clocked odometer: 80,200 km, then 15,000 and on (the TAS knockout's evidence).
  const v4 = newVin();
  await server.ingestAs(entitled, vehicleRecords(v4, KIA, [80_000, 80_200, 15_000, 15_040], [92, 92, 92, 92]));
  [priced, unpriced, bare, clocked] = [`oem-${v1}`, `oem-${v2}`, `oem-${v3}`, `oem-${v4}`];
});

async function get(t: Tenant, id: string, query = "") {
  const res = await server.app.fetch(`/api/v1/predict/residual-value/${id}${query}`, { key: t.key });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const expectedPct = (ageMonths: number, odometerKm: number, sohPct: number | null, powertrain: "BEV" | "PHEV" = "BEV") =>
  predictResidual(CURRENT_RESIDUAL_MODEL, { ageMonths, odometerKm, sohPct, powertrain }).pct;

describe("the constructed vehicles of issue 27 (rv-2027.01: 53.3, 52.7 and 52.2 %: age ignored, SoH barely seen)", () => {
  const cars = [
    { months: 12, km: [9_700, 9_800, 9_900, 10_000], soh: [95, 95, 95, 95] },
    { months: 12, km: [9_700, 9_800, 9_900, 10_000], soh: [75, 75, 75, 75] },
    { months: 72, km: [14_700, 14_800, 14_900, 15_000], soh: [null, null, null, null] },
    { months: 72, km: [139_700, 139_800, 139_900, 140_000], soh: [null, null, null, null] },
    { months: 72, km: [199_700, 199_800, 199_900, 200_000], soh: [null, null, null, null] },
    { months: 72, km: [299_700, 299_800, 299_900, 300_000], soh: [null, null, null, null] },
  ];
  const answers: ReturnType<typeof residualValuePredictionSchema.parse>[] = [];

  beforeAll(async () => {
    const ids: string[] = [];
    for (const c of cars) {
      const vin = newVin();
      ids.push(`oem-${vin}`);
      const leaseStart = new Date(Date.now() - (c.months + 0.5) * 30.4375 * DAY).toISOString().slice(0, 10);
      await server.ingestAs(entitled, vehicleRecords(vin, { ...KIA, lease_start: leaseStart }, c.km, c.soh));
    }
    for (const id of ids) {
      const { status, body } = await get(entitled, id);
      expect(status).toBe(200);
      answers.push(residualValuePredictionSchema.parse(body));
    }
  });

  it("reads each car as constructed, with a SoH not measured as missing (null), not invented", () => {
    answers.forEach((a, i) => {
      expect(a.inputs.age_months.value).toBe(cars[i]!.months);
      expect(a.inputs.odometer_km.value).toBe(cars[i]!.km[3]);
      expect(a.inputs.battery_soh_pct.value).toBe(cars[i]!.soh[3]);
    });
    expect(answers[2]!.inputs.battery_soh_pct).toMatchObject({ status: "missing", source: "not_measured" });
  });

  it("values the SoH: 20 points lower is about 10 % lower (Autovista's 0.5 % per point), not 0.6 points", () => {
    const [a, b] = [answers[0]!.estimated_residual_pct, answers[1]!.estimated_residual_pct];
    expect(b).toBeLessThan(a);
    expect(b / a).toBeGreaterThan(0.88);
    expect(b / a).toBeLessThan(0.92);
  });

  it("values age on its own: the 6-year-old car at 15,000 km is worth far less than the 1-year-old one at 10,000 km", () => {
    expect(answers[2]!.estimated_residual_pct).toBeLessThan(answers[1]!.estimated_residual_pct - 15);
    expect(answers[2]!.estimated_residual_pct).toBeLessThan(answers[0]!.estimated_residual_pct - 20);
  });

  it("keeps lowering the value with mileage at 6 years: 140,000 > 200,000 > 300,000 km", () => {
    const [k140, k200, k300] = answers.slice(3).map((a) => a.estimated_residual_pct);
    expect(k200!).toBeLessThan(k140!);
    expect(k300!).toBeLessThan(k200!);
  });

  it("every answer below high confidence says why, and a SoH not measured is named among the reasons", () => {
    for (const a of answers) if (a.confidence !== "high") expect(a.confidence_reasons.length).toBeGreaterThan(0);
    expect(answers[2]!.confidence_reasons.join(" ")).toMatch(/state of health not measured/);
    // 72 months is beyond the published rows (12–60 months): low, and it says so.
    expect(answers[2]!.confidence).toBe("low");
    expect(answers[2]!.confidence_reasons.join(" ")).toMatch(/calibration range \(age_months/);
  });
});

describe("GET /predict/residual-value/{device_id}", () => {
  it("answers every SPEC 2.16 field from the device's master data and telemetry", async () => {
    const { status, body } = await get(entitled, priced);
    expect(status).toBe(200);
    const a = residualValuePredictionSchema.strict().parse(body);
    const pct = expectedPct(36, 60_000, 92);
    expect(a).toMatchObject({
      device_id: priced,
      estimated_residual_pct: Math.round(pct * 10) / 10,
      estimated_residual_eur: Math.round(500 * pct),
      original_price_eur: 50_000,
      confidence: confidenceOf(CURRENT_RESIDUAL_MODEL, predictResidual(CURRENT_RESIDUAL_MODEL, { ageMonths: 36, odometerKm: 60_000, sohPct: 92, powertrain: "BEV" }), {
        missingInputs: [],
        sohNotMeasured: false,
      }).confidence,
      data_quality: "high",
      model_version: "rv-2027.02",
      price_basis: "trade_de",
      estimate_source: CURRENT_RESIDUAL_MODEL.estimate_source,
    });
    expect(a.validation.model_beats_rule_based).toBe(CURRENT_RESIDUAL_MODEL.validation.model_beats_rule_based);
    expect(a.prediction_interval.level).toBe(0.8);
    if (a.confidence !== "high") expect(a.confidence_reasons.length).toBeGreaterThan(0);
    expect(["high", "medium", "low"]).toContain(a.confidence);
    expect(Date.parse(a.generated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(Object.keys(a.inputs).sort()).toEqual([...INPUT_NAMES].sort());
    expect(a.inputs.age_months).toMatchObject({ status: "derived", source: "master_data.lease_start", value: 36 });
    expect(a.inputs.odometer_km).toMatchObject({ status: "derived", source: "telemetry.latest_odometer", value: 60_000 });
    // The latest plausible SoH (the trailing 0 is a BMS "no value"), not the last reading.
    expect(a.inputs.battery_soh_pct).toMatchObject({ status: "derived", source: "telemetry.latest_plausible_soh", value: 92 });
    expect(a.inputs.powertrain).toMatchObject({ status: "derived", value: "BEV" });
    expect(a.inputs.make).toMatchObject({ status: "derived", value: "Kia", used_by_model: false });
    expect(a.prediction_interval.low_pct).toBeLessThan(a.estimated_residual_pct);
    expect(a.prediction_interval.high_pct).toBeGreaterThan(a.estimated_residual_pct);
  });

  it("gives factors (feature and direction only) to an entitled tenant and null to one without the entitlement", async () => {
    const withFactors = residualValuePredictionSchema.parse((await get(entitled, priced)).body);
    // 36 months is older than the reference vehicle (the published rows' mean age, about 33 months);
    // 60,000 km at 36 months is above the normal 45,000 km; 92 % SoH is below the fleet average for the age (93.1 %).
    expect(withFactors.factors).toEqual([
      { feature: "age_months", direction: "negative" },
      { feature: "odometer_km", direction: "negative" },
      { feature: "battery_soh_pct", direction: "negative" },
    ]);
    const without = await get(plain, priced);
    expect(without.status).toBe(200);
    expect(without.body.factors).toBeNull();
    // Same vehicle, same answer otherwise.
    expect(without.body.estimated_residual_pct).toBe(withFactors.estimated_residual_pct);
  });

  it("has no euro figure without a price; the query's price gives one; master data's gives one", async () => {
    const none = residualValuePredictionSchema.parse((await get(entitled, unpriced)).body);
    expect(none.estimated_residual_eur).toBeNull();
    expect(none.original_price_eur).toBeNull();
    expect(none.inputs.original_price_eur.status).toBe("missing");
    const q = residualValuePredictionSchema.parse((await get(entitled, unpriced, "?original_price_eur=40000")).body);
    expect(q.original_price_eur).toBe(40_000);
    expect(q.estimated_residual_eur).toBe(Math.round(400 * expectedPct(36, 30_300, 95)));
    const master = residualValuePredictionSchema.parse((await get(entitled, priced)).body);
    expect(master.inputs.original_price_eur).toMatchObject({ status: "derived", source: "master_data.original_price_eur" });
  });

  it("query parameters win over what FDP knows, and move the estimate the right way", async () => {
    const base = residualValuePredictionSchema.parse((await get(entitled, priced)).body);
    const fewKm = residualValuePredictionSchema.parse((await get(entitled, priced, "?odometer_km=20000")).body);
    const weak = residualValuePredictionSchema.parse((await get(entitled, priced, "?battery_soh_pct=80.5")).body);
    expect(fewKm.estimated_residual_pct).toBeGreaterThan(base.estimated_residual_pct);
    expect(weak.estimated_residual_pct).toBeLessThan(base.estimated_residual_pct);
    expect(fewKm.inputs.odometer_km).toMatchObject({ status: "supplied", value: 20_000 });
    const all = residualValuePredictionSchema.parse(
      (
        await get(
          entitled,
          priced,
          "?make=Kia&model=EV6%20GT&year=2024&powertrain=PHEV&age_months=24&odometer_km=30000&battery_soh_pct=96&battery_kwh=77.4&original_price_eur=60000&electric_range_km=528&power_kw=239&mass_kg=2100",
        )
      ).body,
    );
    expect(Object.values(all.inputs).every((i) => i.status === "supplied")).toBe(true);
    expect(all.estimated_residual_pct).toBe(Math.round(expectedPct(24, 30_000, 96, "PHEV") * 10) / 10);
    expect(all.inputs.model.value).toBe("EV6 GT");
    // Unknown parameters are ignored.
    const unknown = await get(entitled, priced, "?colour=red&foo=1");
    expect(unknown.status).toBe(200);
    expect(unknown.body.estimated_residual_pct).toBe(base.estimated_residual_pct);
  });

  it("says what was missing: a PHEV with no age, odometer or SoH is low data quality and names each fill-in", async () => {
    const a = residualValuePredictionSchema.parse((await get(entitled, bare)).body);
    expect(a.data_quality).toBe("low");
    expect(a.inputs.powertrain).toMatchObject({ status: "derived", value: "PHEV" });
    for (const k of ["age_months", "odometer_km", "battery_soh_pct"] as const) expect(a.inputs[k].status).toBe("missing");
    // No SoH is invented: not measured, no battery adjustment, and the answer says so.
    expect(a.inputs.battery_soh_pct).toMatchObject({ value: null, source: "not_measured" });
    expect(a.confidence).toBe("low");
    expect(a.confidence_reasons.join(" ")).toMatch(/state of health not measured/);
    expect(a.limitations.length).toBeGreaterThanOrEqual(3);
    // The BEV default only when the master data says nothing usable.
    const supplied = residualValuePredictionSchema.parse((await get(entitled, bare, "?age_months=24&odometer_km=30000&battery_soh_pct=95")).body);
    expect(supplied.data_quality).toBe("high");
  });

  it("values a clocked odometer at the highest reading before the rollback, not the turned-back one", async () => {
    const a = residualValuePredictionSchema.parse((await get(entitled, clocked)).body);
    expect(a.inputs.odometer_km).toMatchObject({ status: "derived", source: "telemetry.highest_before_rollback", value: 80_200 });
    expect(a.estimated_residual_pct).toBe(Math.round(expectedPct(36, 80_200, 92) * 10) / 10);
    expect(a.limitations.join(" ")).toMatch(/turned back/);
  });

  it("is low confidence outside the calibration range", async () => {
    const a = residualValuePredictionSchema.parse((await get(entitled, priced, "?age_months=140")).body);
    expect(a.confidence).toBe("low");
    expect(a.limitations.join(" ")).toMatch(/calibration range/);
  });

  it.each([
    ["year", "1.5"],
    ["year", "abc"],
    ["age_months", "1.5"],
    ["age_months", "-1"],
    ["odometer_km", "-1"],
    ["odometer_km", "abc"],
    ["odometer_km", "NaN"],
    ["odometer_km", "Infinity"],
    ["odometer_km", "1e400"],
    ["battery_soh_pct", "101"],
    ["battery_soh_pct", "-1"],
    ["battery_kwh", "0"],
    ["original_price_eur", "1e5"],
    ["electric_range_km", "-5"],
    ["power_kw", "NaN"],
    ["mass_kg", "Infinity"],
    ["powertrain", "ICE"],
    ["powertrain", "bev"],
    ["make", ""],
    ["model", "x".repeat(101)],
  ])("refuses %s=%s with a 400 naming the parameter", async (name, value) => {
    const { status, body } = await get(entitled, priced, `?${name}=${encodeURIComponent(value)}`);
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_request");
    expect(typeof body.message).toBe("string");
    expect((body.details as { field: string }[]).map((d) => d.field)).toContain(name);
  });

  it("answers 404 for another tenant's device and for an unknown one, identically", async () => {
    const other = await get(plain, unpriced);
    const unknown = await get(plain, "no-such-device");
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(other.body.error).toBe("not_found");
    expect(Object.keys(other.body).sort()).toEqual(Object.keys(unknown.body).sort());
  });
});
