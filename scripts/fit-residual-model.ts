/**
 * Refits the model-based residual value (endpoint 20) from data/residual-value/calibration.csv and
 * writes lib/leasing/residual-model/model-<version>.json. Deterministic: the same CSV gives the same
 * file, byte for byte (tests/unit/leasing/residual-model-fit.test.ts refits and compares).
 *
 *   npm run fit:residual-model            # write the model file, print the fit statistics
 *   npm run fit:residual-model -- --check # exit 1 if the stored file differs from a refit
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CALIBRATION_CSV_PATH } from "@/lib/leasing/residual-model/calibration-data";
import { fitResidualModel, serialiseModel } from "@/lib/leasing/residual-model/fit";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const model = fitResidualModel(readFileSync(join(root, CALIBRATION_CSV_PATH), "utf8"));
const out = join(root, "lib/leasing/residual-model", `model-${model.model_version}.json`);
const text = serialiseModel(model);
if (process.argv.includes("--check")) {
  const stored = readFileSync(out, "utf8");
  if (stored !== text) {
    console.error(`${out} differs from a refit of ${CALIBRATION_CSV_PATH}: run npm run fit:residual-model`);
    process.exit(1);
  }
  console.log(`${out} reproduces from ${CALIBRATION_CSV_PATH}.`);
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
const f = model.fit;
console.log(`n = ${f.n_rows} rows (${f.n_published} published, ${f.n_synthesised} synthesised); R² = ${f.r_squared.toFixed(4)} (published rows: ${f.r_squared_published.toFixed(4)}); residual SE (log scale) = ${model.residual_se.toFixed(4)}, df = ${model.degrees_of_freedom}`);
for (const name of model.features) console.log(`  ${name.padEnd(16)} ${model.coefficients[name].toFixed(6).padStart(11)}  (SE ${model.standard_errors[name].toFixed(6)})`);
for (const c of model.constraints) console.log(`  constraint ${c.name}: ${c.active ? "ACTIVE (the fit lies on its boundary)" : "inactive"}; unconstrained a·b = ${c.unconstrained_value.toFixed(6)}`);
