/**
 * The model endpoint 20 answers with. A new version is a new file beside this one and a one-line change
 * here (docs/methodology/residual-value-model.md "Version policy"); the schema checks the file at load.
 * model-rv-2027.01.json is kept, unedited, as the record of what answered before rv-2027.02.
 */
import stored from "./model-rv-2027.02.json";
import { residualModelFileSchema, type ResidualModelFile } from "./model-file";

export const CURRENT_RESIDUAL_MODEL: ResidualModelFile = residualModelFileSchema.parse(stored);
