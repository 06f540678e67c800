import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CALIBRATION_CSV_PATH, datasetHash, parseCalibrationCsv } from "@/lib/leasing/residual-model/calibration-data";
import { CURRENT_RESIDUAL_MODEL } from "@/lib/leasing/residual-model/current-model";
import { excessKm, MODEL_FEATURES, sohDeficitPp } from "@/lib/leasing/residual-model/features";
import { fitResidualModel, NON_POSITIVE_FEATURES, serialiseModel } from "@/lib/leasing/residual-model/fit";
import { olsQr } from "@/lib/leasing/residual-model/ols";
import { studentTCdf, studentTQuantile } from "@/lib/leasing/residual-model/student-t";
import { expectedSohPct, MILEAGE_PENALTY_PCT_PER_1000KM } from "@/lib/leasing/residual-value-rules";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const csv = readFileSync(path.join(ROOT, CALIBRATION_CSV_PATH), "utf8");
const storedText = readFileSync(path.join(ROOT, `lib/leasing/residual-model/model-${CURRENT_RESIDUAL_MODEL.model_version}.json`), "utf8");

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
    for (const f of NON_POSITIVE_FEATURES) expect(CURRENT_RESIDUAL_MODEL.coefficients[f]).toBeLessThan(0);
    expect(CURRENT_RESIDUAL_MODEL.held_at_zero).toEqual([]);
  });

  it("estimates depreciation with age from the data: negative, and more than two standard errors from zero", () => {
    const b = CURRENT_RESIDUAL_MODEL.coefficients.age_years;
    expect(b).toBeLessThan(0);
    expect(b / CURRENT_RESIDUAL_MODEL.standard_errors.age_years).toBeLessThan(-2);
    // The unconstrained fit agrees: the sign is the data's, not the constraint's.
    expect(CURRENT_RESIDUAL_MODEL.fit.unconstrained.age_years.coefficient).toBe(b);
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
