import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CALIBRATION_CSV_PATH, datasetHash, parseCalibrationCsv, PRICE_BASIS_BY_SOURCE } from "@/lib/leasing/residual-model/calibration-data";
import { CURRENT_RESIDUAL_MODEL as model } from "@/lib/leasing/residual-model/current-model";
import { excessKm, priorRetention, sohDeficitPp } from "@/lib/leasing/residual-model/features";
import { fitResidualModel, MIN_DECLINE_PER_YEAR, serialiseModel, tiltBounds } from "@/lib/leasing/residual-model/fit";
import { residualModelFileSchema } from "@/lib/leasing/residual-model/model-file";
import { predictResidual } from "@/lib/leasing/residual-model/predict";
import { AGE_BANDS, PREDICTORS } from "@/lib/leasing/residual-model/validate";
import { expectedSohPct, MILEAGE_PENALTY_PCT_PER_1000KM, RESIDUAL_RULES_VERSION } from "@/lib/leasing/residual-value-rules";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const csv = readFileSync(path.join(ROOT, CALIBRATION_CSV_PATH), "utf8");
const storedText = readFileSync(path.join(ROOT, `lib/leasing/residual-model/model-${model.model_version}.json`), "utf8");
const CURRENT_RESIDUAL_MODEL = model;

/** The CSV with every published row's retained_pct replaced by `f(row)` (synthesised rows are not fitted). */
function withPublished(f: (r: ReturnType<typeof parseCalibrationCsv>[number]) => number): string {
  const rows = parseCalibrationCsv(csv);
  const byId = new Map(rows.map((r) => [r.row_id, r]));
  return csv
    .split("\n")
    .map((line, i) => {
      if (i === 0 || line.trim() === "") return line;
      const id = line.slice(0, line.indexOf(","));
      const r = byId.get(id)!;
      if (r.kind !== "published") return line;
      const fields = line.split(",");
      fields[8] = String(Math.round(f(r) * 10_000) / 10_000);
      return fields.join(",");
    })
    .join("\n");
}

describe("refitting the residual value model (rv-2027.02) from the shipped CSV", () => {
  it("is deterministic and reproduces the stored file byte for byte; the file passes its schema", () => {
    expect(serialiseModel(fitResidualModel(csv))).toBe(storedText);
    expect(residualModelFileSchema.safeParse(JSON.parse(storedText)).success).toBe(true);
    expect(model.model_version).toBe("rv-2027.02");
    expect(model.prior.method).toBe(RESIDUAL_RULES_VERSION);
  });

  it("names the exact dataset it was fitted on (SHA-256 of the CSV bytes) and fits the published rows only", () => {
    expect(model.dataset.sha256).toBe(datasetHash(csv));
    expect(model.dataset.published_rows_fitted).toBe(parseCalibrationCsv(csv).filter((r) => r.kind === "published").length);
  });

  it("the fit script's --check passes on the shipped files", () => {
    const out = execFileSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/fit-residual-model.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(out).toMatch(/reproduces/);
    // It prints the error table by age band and the constructed vehicles (the methodology page quotes them).
    expect(out).toMatch(/leave-one-out: \| band/);
    expect(out).toMatch(/72 m \/ 300,000 km/);
  });

  it("gives every published row one price basis, stated per source; an unknown source is refused", () => {
    for (const r of parseCalibrationCsv(csv).filter((x) => x.kind === "published")) expect(PRICE_BASIS_BY_SOURCE[r.source], r.source).toBeDefined();
    expect(() => fitResidualModel(csv.replace("P02,published,cdl-vis-2025", "P02,published,someone-2026"))).toThrow(/price basis/);
  });

  it("keeps each age tilt below the bound that leaves every car losing at least 2 % a year at the same odometer and SoH", () => {
    const bounds = tiltBounds();
    for (const f of ["tilt_12_36m", "tilt_36_60m"] as const) {
      expect(model.upper_bounds[f]).toBe(bounds[f]);
      expect(model.coefficients[f]).toBeLessThanOrEqual(bounds[f]! + 1e-12);
    }
    // The bound is what it says: the prior plus a tilt at its bound still falls by MIN_DECLINE_PER_YEAR a year.
    for (const [f, from, to] of [
      ["tilt_12_36m", 12, 36],
      ["tilt_36_60m", 36, 60],
    ] as const)
      for (let a = from; a < to; a += 3)
        for (const odometerKm of [0, 20_000, a * 1250 + 50_000, 400_000])
          for (const sohPct of [null, 70, 100]) {
            const v0 = priorRetention({ ageMonths: a, odometerKm, sohPct, powertrain: "BEV" });
            const v1 = priorRetention({ ageMonths: a + 1, odometerKm, sohPct, powertrain: "BEV" });
            expect(12 * Math.log(v1 / v0) + bounds[f]!).toBeLessThanOrEqual(-MIN_DECLINE_PER_YEAR + 1e-9);
          }
  });
});

describe("out-of-sample validation against the rule-based method", () => {
  const v = model.validation;

  it("has the documented shape: both schemes, three predictors, four age bands summing to every published row", () => {
    expect(v.n_published).toBe(22);
    for (const scheme of [v.loo, v.leave_one_source_out]) {
      expect(Object.keys(scheme).sort()).toEqual([...PREDICTORS].sort());
      for (const p of PREDICTORS) {
        const e = scheme[p];
        expect(e.by_age_band.map((b) => b.band)).toEqual(AGE_BANDS.map((b) => b.band));
        expect(e.by_age_band.reduce((s, b) => s + b.n, 0)).toBe(22);
        expect(e.rmse_pp).toBeGreaterThanOrEqual(e.mae_pp);
        expect(e.interval_half_width_log).toBeGreaterThan(0);
      }
    }
    expect(v.rows).toHaveLength(22);
    // Each held-out row's errors recompute to the table.
    const mae = (k: "rule_based_pct" | "rule_based_basis_pct" | "model_pct") => v.rows.reduce((s, r) => s + Math.abs(r[k] - r.retained_pct), 0) / v.rows.length;
    expect(mae("model_pct")).toBeCloseTo(v.loo.model.mae_pp, 3);
    expect(mae("rule_based_pct")).toBeCloseTo(v.loo.rule_based.mae_pp, 3);
    expect(mae("rule_based_basis_pct")).toBeCloseTo(v.loo.rule_based_basis.mae_pp, 3);
  });

  it("decides the estimate source from the leave-one-out errors: the model only where it beats both rule-based predictors", () => {
    const l = v.loo;
    const beats = l.model.mae_pp < Math.min(l.rule_based.mae_pp, l.rule_based_basis.mae_pp) && l.model.rmse_pp < Math.min(l.rule_based.rmse_pp, l.rule_based_basis.rmse_pp);
    expect(v.model_beats_rule_based).toBe(beats);
    expect(model.estimate_source).toBe(beats ? "model" : "rule_based");
    expect(model.interval.loo_half_width_log).toBe(beats ? l.model.interval_half_width_log : l.rule_based_basis.interval_half_width_log);
  });

  it("on data that lie exactly on the rule-based curve, the model cannot beat it: the answer is the rule-based value", () => {
    const onRules = fitResidualModel(
      withPublished((r) => 100 * priorRetention({ ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain })),
    );
    expect(onRules.validation.model_beats_rule_based).toBe(false);
    expect(onRules.estimate_source).toBe("rule_based");
    const p = predictResidual(onRules, { ageMonths: 36, odometerKm: 45_000, sohPct: 93.1, powertrain: "BEV" });
    expect(p.pct).toBe(p.rulePct);
  });

  it("with no data pulling it, the model stays at its prior (the shrinkage): rows on the curve give zero adjustments", () => {
    const onRules = fitResidualModel(
      withPublished((r) => 100 * priorRetention({ ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain })),
    );
    for (const f of onRules.features) expect(Math.abs(onRules.coefficients[f]), f).toBeLessThan(1e-4);
  });
});

describe("the calibration CSV", () => {
  const rows = parseCalibrationCsv(csv);
  const byId = new Map(rows.map((r) => [r.row_id, r]));

  it("gives every published row the fleet-average SoH of its age, and cites a source", () => {
    const published = rows.filter((r) => r.kind === "published");
    expect(published.length).toBe(CURRENT_RESIDUAL_MODEL.dataset.published_rows_fitted);
    for (const r of published) {
      expect(r.soh_pct).toBeCloseTo(expectedSohPct(r.age_months), 2);
      expect(sohDeficitPp(r.age_months, r.soh_pct)).toBeCloseTo(0, 2);
      expect(r.source).not.toBe("");
    }
  });

  it("has published rows at enough distinct ages for the age slope to be estimated (12 to 60 months)", () => {
    const ages = [...new Set(rows.filter((r) => r.kind === "published").map((r) => r.age_months))].sort((a, b) => a - b);
    expect(ages).toEqual([12, 18, 24, 36, 60]);
  });

  it("derives every synthesised row from its published parent by one of the README's two rules", () => {
    const synthesised = rows.filter((r) => r.kind === "synthesised");
    expect(synthesised.length).toBe(CURRENT_RESIDUAL_MODEL.dataset.rows - CURRENT_RESIDUAL_MODEL.dataset.published_rows_fitted);
    const round2 = (x: number) => Math.round(x * 100) / 100;
    for (const s of synthesised) {
      const parent = byId.get(s.derived_from)!;
      expect(parent.kind).toBe("published");
      expect([s.age_months, s.powertrain, s.market]).toEqual([parent.age_months, parent.powertrain, parent.market]);
      if (s.source === "autovista-soh-elasticity") {
        // Autovista (TWAICE white paper): 1 pp SoH ≈ 0.5 % residual value, relative to the parent's value; BEVs only.
        expect(parent.powertrain).toBe("BEV");
        expect(s.odometer_km).toBe(parent.odometer_km);
        const delta = round2(s.soh_pct - parent.soh_pct);
        expect([-9, -6, -3]).toContain(delta);
        expect(s.retained_pct).toBeCloseTo(round2(parent.retained_pct * (1 + 0.005 * delta)), 2);
      } else {
        // FDP's documented mileage assumption, the rule-based method's penalty per 1,000 km above normal.
        expect(s.source).toBe("fdp-mileage-assumption");
        expect(s.soh_pct).toBe(parent.soh_pct);
        const extraKm = s.odometer_km - parent.odometer_km;
        expect([10_000, 20_000, 30_000]).toContain(extraKm);
        expect(excessKm(s.age_months, s.odometer_km) - excessKm(parent.age_months, parent.odometer_km)).toBe(extraKm);
        expect(s.retained_pct).toBeCloseTo(round2(parent.retained_pct * (1 - (MILEAGE_PENALTY_PCT_PER_1000KM / 100) * (extraKm / 1000))), 2);
      }
    }
  });

  it("refuses a malformed row instead of fitting on it", () => {
    expect(() => parseCalibrationCsv(csv.replace("P01,published,twaice-autovista-2020,DE,BEV,36,45000", "P01,published,twaice-autovista-2020,DE,BEV,36,abc"))).toThrow(
      /odometer_km/,
    );
    expect(() => parseCalibrationCsv(csv.replace("P02,published", "P01,published"))).toThrow(/duplicate/);
  });
});
