/**
 * Refits the model-based residual value (endpoint 20) from data/residual-value/calibration.csv, runs
 * its out-of-sample validation against the rule-based method, and writes
 * lib/leasing/residual-model/model-<version>.json. Deterministic: the same CSV and rules give the same
 * file, byte for byte (tests/unit/leasing/residual-model-fit.test.ts refits and compares). Prints the
 * error table and the constructed-vehicle table of docs/methodology/residual-value-model.md.
 *
 *   npm run fit:residual-model            # write the model file, print the fit and validation
 *   npm run fit:residual-model -- --check # exit 1 if the stored file differs from a refit
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CALIBRATION_CSV_PATH } from "@/lib/leasing/residual-model/calibration-data";
import { fitResidualModel, serialiseModel } from "@/lib/leasing/residual-model/fit";
import { constructedVehiclesTable, validationTable } from "@/lib/leasing/residual-model/report";

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
console.log(
  `${model.dataset.published_rows_fitted} published rows fitted (of ${model.dataset.rows}); prior ${model.prior.method}; residual SE (log) ${model.residual_se.toFixed(4)}, effective df ${model.effective_df.toFixed(2)}`,
);
for (const name of model.features) {
  const bound = model.upper_bounds[name];
  console.log(
    `  ${name.padEnd(24)} ${model.coefficients[name].toFixed(5).padStart(9)}  (SE ${model.standard_errors[name].toFixed(5)}, prior SD ${model.prior.sd[name]}${bound !== undefined ? `, bound ≤ ${bound.toFixed(5)}${model.at_bound.includes(name) ? " ACTIVE" : ""}` : ""})`,
  );
}
console.log(`interval: ${model.interval.level} level, leave-one-out half-width ${model.interval.loo_half_width_log.toFixed(4)} (log)`);
console.log(validationTable(model));
console.log(constructedVehiclesTable(model));
