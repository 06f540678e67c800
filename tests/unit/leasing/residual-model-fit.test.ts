import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CALIBRATION_CSV_PATH, datasetHash, parseCalibrationCsv } from "@/lib/leasing/residual-model/calibration-data";
import { CURRENT_RESIDUAL_MODEL } from "@/lib/leasing/residual-model/current-model";
import { excessKm, MODEL_FEATURES, sohDeficitPp } from "@/lib/leasing/residual-model/features";
import { constrainedLeastSquares } from "@/lib/leasing/residual-model/constrained-ls";
import { featureRow } from "@/lib/leasing/residual-model/features";
import { FIT_CONSTRAINTS, fitResidualModel, NORMAL_10K_KM_PER_YEAR, serialiseModel } from "@/lib/leasing/residual-model/fit";
import { olsQr } from "@/lib/leasing/residual-model/ols";
import { studentTCdf, studentTQuantile } from "@/lib/leasing/residual-model/student-t";
import { EXPECTED_SOH_LOSS_PCT_PER_YEAR, expectedSohPct, MILEAGE_PENALTY_PCT_PER_1000KM, NORMAL_KM_PER_YEAR } from "@/lib/leasing/residual-value-rules";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const csv = readFileSync(path.join(ROOT, CALIBRATION_CSV_PATH), "utf8");
const storedText = readFileSync(path.join(ROOT, `lib/leasing/residual-model/model-${CURRENT_RESIDUAL_MODEL.model_version}.json`), "utf8");

const quad2 = (u: number[], m: number[][]) => u.reduce((s, ui, i) => s + ui * m[i]!.reduce((t, mij, j) => t + mij * u[j]!, 0), 0);

/** Relative closeness, with an absolute floor for coefficients that are exactly zero. */
function expectClose(actual: number, expected: number, what: string) {
  const scale = Math.max(Math.abs(expected), 1e-12);
  expect(Math.abs(actual - expected) / scale, `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

describe("refitting the residual value model from the shipped CSV", () => {
  const refit = fitResidualModel(csv);

  it("reproduces every stored coefficient, standard error and fit statistic to 1e-9 relative", () => {
    for (const f of MODEL_FEATURES) {
      expectClose(refit.coefficients[f], CURRENT_RESIDUAL_MODEL.coefficients[f], `coefficient ${f}`);
      expectClose(refit.standard_errors[f], CURRENT_RESIDUAL_MODEL.standard_errors[f], `standard error ${f}`);
    }
    expectClose(refit.residual_se, CURRENT_RESIDUAL_MODEL.residual_se, "residual_se");
    expectClose(refit.fit.r_squared, CURRENT_RESIDUAL_MODEL.fit.r_squared, "r_squared");
    refit.xtx_inverse.forEach((row, i) => row.forEach((v, j) => expectClose(v, CURRENT_RESIDUAL_MODEL.xtx_inverse[i]![j]!, `xtx_inverse[${i}][${j}]`)));
    expect(refit.held_at_zero).toEqual(CURRENT_RESIDUAL_MODEL.held_at_zero);
    expect(refit.training_range).toEqual(CURRENT_RESIDUAL_MODEL.training_range);
  });

  it("names the exact dataset it was fitted on (SHA-256 of the CSV bytes)", () => {
    expect(CURRENT_RESIDUAL_MODEL.dataset.sha256).toBe(datasetHash(csv));
    expect(refit.dataset.sha256).toBe(CURRENT_RESIDUAL_MODEL.dataset.sha256);
    // One changed figure is a different dataset.
    expect(datasetHash(csv.replace("47.04", "47.05"))).not.toBe(CURRENT_RESIDUAL_MODEL.dataset.sha256);
  });

  it("is deterministic: two fits serialise to the same bytes, which are the stored file", () => {
    expect(serialiseModel(fitResidualModel(csv))).toBe(serialiseModel(refit));
    expect(serialiseModel(refit)).toBe(storedText);
  });

  it("the fit script's --check passes on the shipped files", () => {
    const out = execFileSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/fit-residual-model.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(out).toContain("reproduces");
  });

  it("keeps the sign constraints: no depreciation feature raises the value, and none had to be held at zero", () => {
    for (const f of ["age_years", "excess_10k_km", "soh_deficit_pp"] as const) expect(CURRENT_RESIDUAL_MODEL.coefficients[f]).toBeLessThan(0);
    expect(CURRENT_RESIDUAL_MODEL.held_at_zero).toEqual([]);
  });

  it("lies on the boundary of 'no gain with age at the same odometer and SoH': the unconstrained fit violates it", () => {
    const byName = Object.fromEntries(CURRENT_RESIDUAL_MODEL.constraints.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(FIT_CONSTRAINTS.map((c) => c.name));
    // Unconstrained, an older car at the same odometer and SoH gained about 4.6 % a year.
    expect(byName.no_gain_with_age_at_fixed_odometer_and_soh!.unconstrained_value).toBeGreaterThan(0.04);
    expect(byName.no_gain_with_age_at_fixed_odometer!.unconstrained_value).toBeGreaterThan(0.02);
    expect(CURRENT_RESIDUAL_MODEL.constraints.filter((c) => c.active).map((c) => c.name)).toEqual(["no_gain_with_age_at_fixed_odometer_and_soh"]);
    const c = CURRENT_RESIDUAL_MODEL.coefficients;
    // On the boundary the age coefficient is derived: a year of age costs exactly the kilometres and the battery wear it brings.
    expect(c.age_years).toBe(NORMAL_10K_KM_PER_YEAR * c.excess_10k_km + EXPECTED_SOH_LOSS_PCT_PER_YEAR * c.soh_deficit_pp);
    expect(NORMAL_10K_KM_PER_YEAR).toBe(NORMAL_KM_PER_YEAR / 10_000);
    expect(CURRENT_RESIDUAL_MODEL.fit.unconstrained.age_years.coefficient).not.toBe(c.age_years);
    // Every constraint holds in the stored model.
    const beta = MODEL_FEATURES.map((f) => c[f]);
    for (const k of FIT_CONSTRAINTS) expect(k.a.reduce((s, v, i) => s + v * beta[i]!, 0)).toBeLessThanOrEqual(1e-15);
    // One coefficient fewer is fitted: a degree of freedom more than published rows − 5.
    expect(CURRENT_RESIDUAL_MODEL.degrees_of_freedom).toBe(CURRENT_RESIDUAL_MODEL.fit.n_published - 4);
  });

  it("refuses to write a model whose data would give age the wrong sign", () => {
    // Reverse the published age curve: every 60-month row (published and synthesised) gains 60 %, so
    // five-year-old cars become the dearest. Fields before the note hold no commas.
    const reversed = csv
      .split("\n")
      .map((line) => {
        const f = line.split(",");
        if (f[5] !== "60") return line;
        f[8] = (Number(f[8]) * 1.6).toFixed(2);
        return f.join(",");
      })
      .join("\n");
    expect(() => fitResidualModel(reversed)).toThrow(/age coefficient/);
  });
});

/** The shipped CSV with every 60-month row's retained value scaled: a steeper (< 1) or flatter (> 1) published age curve. Fields before the note hold no commas. */
function withSixtyMonthValuesScaled(factor: number): string {
  return csv
    .split("\n")
    .map((line) => {
      const f = line.split(",");
      if (f[5] !== "60") return line;
      f[8] = (Number(f[8]) * factor).toFixed(2);
      return f.join(",");
    })
    .join("\n");
}

const designOf = (text: string) => {
  const rows = parseCalibrationCsv(text);
  return {
    rows,
    x: rows.map((r) => featureRow({ ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain })),
    y: rows.map((r) => Math.log(r.retained_pct / 100)),
  };
};
const rssOf = (x: number[][], y: number[], beta: readonly number[]) => x.reduce((s, row, i) => s + (y[i]! - row.reduce((t, v, j) => t + v * beta[j]!, 0)) ** 2, 0);

describe("the constrained fit (KKT)", () => {
  it("leaves the unconstrained fit unchanged when no constraint is violated (a steeper published age curve)", () => {
    const text = withSixtyMonthValuesScaled(0.7);
    const model = fitResidualModel(text);
    expect(model.constraints.map((c) => c.active)).toEqual(FIT_CONSTRAINTS.map(() => false));
    for (const c of model.constraints) expect(c.unconstrained_value).toBeLessThan(0);
    const { x, y } = designOf(text);
    const ols = olsQr(x, y);
    // Bit for bit the ordinary least squares fit, and all five coefficients fitted.
    expect(MODEL_FEATURES.map((f) => model.coefficients[f])).toEqual(ols.coefficients);
    for (const f of MODEL_FEATURES) expect(model.coefficients[f]).toBe(model.fit.unconstrained[f].coefficient);
    expect(model.xtx_inverse).toEqual(ols.xtxInverse);
    expect(model.degrees_of_freedom).toBe(model.fit.n_published - MODEL_FEATURES.length);
  });

  it("lands exactly on the boundary when the data violate it, and equals the reduced model fitted directly", () => {
    const { rows, x, y } = designOf(csv);
    const model = fitResidualModel(csv);
    const c = model.coefficients;
    // The reduced model written out by hand: on the boundary ln(value) = b0 + b_exc·odometer/10,000 + b_soh·(100 − SoH) + b_phev·phev.
    const z = rows.map((r) => [1, r.odometer_km / 10_000, 100 - r.soh_pct, r.powertrain === "PHEV" ? 1 : 0]);
    const reduced = olsQr(z, y);
    expectClose(c.intercept, reduced.coefficients[0]!, "intercept");
    expectClose(c.excess_10k_km, reduced.coefficients[1]!, "b_exc = b_odometer");
    expectClose(c.soh_deficit_pp, reduced.coefficients[2]!, "b_soh");
    expectClose(c.phev, reduced.coefficients[3]!, "b_phev");
    expectClose(model.fit.rss, reduced.rss, "rss");
    // The covariance is the reduced model's, mapped back: the leverage of any car is the same in both.
    for (const v of [{ ageMonths: 12, odometerKm: 15_000, sohPct: 97.7 }, { ageMonths: 60, odometerKm: 150_000, sohPct: 80 }, { ageMonths: 36, odometerKm: 45_000, sohPct: 93.1 }]) {
      const full = featureRow({ ...v, powertrain: "BEV" });
      const red = [1, v.odometerKm / 10_000, 100 - v.sohPct, 0];
      const quad = (m: number[][], u: number[]) => u.reduce((s, ui, i) => s + ui * m[i]!.reduce((t, mij, j) => t + mij * u[j]!, 0), 0);
      expectClose(quad(model.xtx_inverse, full), quad(reduced.xtxInverse, red), "leverage");
    }
    // The derived age coefficient's standard error is that of 1.5·b_odometer + 2.3·b_soh in the reduced model.
    expectClose(model.standard_errors.age_years, Math.sqrt(model.residual_se ** 2 * model.design_effect * quad2([0, NORMAL_10K_KM_PER_YEAR, EXPECTED_SOH_LOSS_PCT_PER_YEAR, 0], reduced.xtxInverse)), "SE of the derived age coefficient");
    // Optimal on the feasible set: no feasible step from it lowers the RSS.
    const beta = MODEL_FEATURES.map((f) => c[f]);
    const best = rssOf(x, y, beta);
    const feasible = (b: number[]) => FIT_CONSTRAINTS.every((k) => k.a.reduce((s, v, i) => s + v * b[i]!, 0) <= 1e-15);
    // Steps along each coefficient, along the boundary (b_exc and b_age together) and into the interior (b_age alone, lower).
    const unit = (j: number) => MODEL_FEATURES.map((_, i) => (i === j ? 1 : 0));
    const directions = [...MODEL_FEATURES.map((_, j) => unit(j)), [0, NORMAL_10K_KM_PER_YEAR, 1, 0, 0], [0, EXPECTED_SOH_LOSS_PCT_PER_YEAR, 0, 1, 0]];
    let tried = 0;
    for (const d of directions) {
      for (const step of [-1e-3, 1e-3, -1e-2, 1e-2]) {
        const b = beta.map((v, i) => v + step * d[i]!);
        if (!feasible(b)) continue;
        tried++;
        expect(rssOf(x, y, b)).toBeGreaterThan(best);
      }
    }
    expect(tried).toBeGreaterThanOrEqual(16);
  });

  it("on a flatter published curve holds the SoH slope at zero too, and the two age constraints then coincide", () => {
    const model = fitResidualModel(withSixtyMonthValuesScaled(1.1));
    expect(model.held_at_zero).toEqual(["soh_deficit_pp"]);
    expect(model.constraints.filter((c) => c.active).map((c) => c.name)).toEqual(["soh_deficit_never_raises_value", "no_gain_with_age_at_fixed_odometer", "no_gain_with_age_at_fixed_odometer_and_soh"]);
    expect(model.coefficients.age_years).toBe(NORMAL_10K_KM_PER_YEAR * model.coefficients.excess_10k_km);
    expect(model.standard_errors.soh_deficit_pp).toBe(0);
  });

  it("solves a small problem whose answer is known: a slope the data want positive is held at zero, with a positive multiplier", () => {
    const x = [0, 1, 2, 3, 4].map((a) => [1, a]);
    const y = [1, 3, 5, 7, 9.5];
    const fit = constrainedLeastSquares(x, y, [{ name: "slope_not_positive", a: [0, 1] }]);
    expect(fit.coefficients).toEqual([y.reduce((s, v) => s + v, 0) / 5, 0]);
    expect(fit.active).toEqual(["slope_not_positive"]);
    expect(fit.multipliers.slope_not_positive).toBeGreaterThan(0);
    const free = constrainedLeastSquares(x, y, [{ name: "slope_not_negative", a: [0, -1] }]);
    expect(free.active).toEqual([]);
    expect(free.coefficients).toEqual(olsQr(x, y).coefficients);
  });
});

describe("the calibration CSV", () => {
  const rows = parseCalibrationCsv(csv);
  const byId = new Map(rows.map((r) => [r.row_id, r]));

  it("gives every published row the fleet-average SoH of its age, and cites a source", () => {
    const published = rows.filter((r) => r.kind === "published");
    expect(published.length).toBe(CURRENT_RESIDUAL_MODEL.fit.n_published);
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
    expect(synthesised.length).toBe(CURRENT_RESIDUAL_MODEL.fit.n_synthesised);
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
    expect(() => parseCalibrationCsv(csv.replace("P01,published,twaice-autovista-2020,DE,BEV,36,45000", "P01,published,twaice-autovista-2020,DE,BEV,36,abc"))).toThrow(/odometer_km/);
    expect(() => parseCalibrationCsv(csv.replace("P02,published", "P01,published"))).toThrow(/duplicate/);
  });
});

describe("olsQr", () => {
  it("recovers exact coefficients and matches the normal equations on a known problem", () => {
    // y = 2 + 3a − b exactly, plus a perpendicular residual on the last row pair.
    const x = [
      [1, 0, 0],
      [1, 1, 0],
      [1, 0, 1],
      [1, 2, 1],
      [1, 3, 5],
    ];
    const y = x.map(([, a, b]) => 2 + 3 * a! - b!);
    const fit = olsQr(x, y);
    fit.coefficients.forEach((c, i) => expect(c).toBeCloseTo([2, 3, -1][i]!, 12));
    expect(fit.rss).toBeLessThan(1e-20);
    // (X'X)⁻¹ times X'X is the identity.
    const xtx = [0, 1, 2].map((i) => [0, 1, 2].map((j) => x.reduce((s, r) => s + r[i]! * r[j]!, 0)));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect([0, 1, 2].reduce((s, k) => s + fit.xtxInverse[i]![k]! * xtx[k]![j]!, 0)).toBeCloseTo(i === j ? 1 : 0, 10);
  });

  it("refuses a rank-deficient design (a feature the data cannot identify)", () => {
    expect(() => olsQr([[1, 2], [2, 4], [3, 6]], [1, 2, 3])).toThrow(/collinear|rank/);
  });
});

describe("Student's t quantile", () => {
  it("matches table values", () => {
    expect(studentTQuantile(0.95, 15)).toBeCloseTo(1.7531, 4);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.2281, 4);
    expect(studentTCdf(0, 7)).toBeCloseTo(0.5, 12);
    expect(CURRENT_RESIDUAL_MODEL.t_quantile).toBeCloseTo(studentTQuantile(0.95, CURRENT_RESIDUAL_MODEL.degrees_of_freedom), 10);
  });
});
