/**
 * The calibration dataset (data/residual-value/calibration.csv, provenance in its README.md): parsed
 * with a small RFC 4180 reader (quoted fields may hold commas), each row checked, so a malformed edit
 * of the CSV fails the fit loudly instead of fitting on a half-read row.
 */
import { createHash } from "node:crypto";

export const CALIBRATION_CSV_PATH = "data/residual-value/calibration.csv";

const CALIBRATION_COLUMNS = ["row_id", "kind", "source", "market", "powertrain", "age_months", "odometer_km", "soh_pct", "retained_pct", "derived_from", "note"] as const;

interface CalibrationRow {
  row_id: string;
  /** `published`: a figure as a cited source states it; `synthesised`: derived from a published row by the README's rule. */
  kind: "published" | "synthesised";
  source: string;
  market: string;
  powertrain: "BEV" | "PHEV";
  age_months: number;
  odometer_km: number;
  soh_pct: number;
  /** Value retained, percent of the original (list) price. */
  retained_pct: number;
  /** The published row a synthesised row was derived from ("" for published rows). */
  derived_from: string;
  note: string;
}

function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (quoted) throw new Error(`calibration CSV: unterminated quote in ${line}`);
  out.push(cur);
  return out;
}

function finite(value: string, column: string, rowId: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new Error(`calibration CSV: ${rowId}.${column} is not a number: ${value}`);
  return n;
}

export function parseCalibrationCsv(text: string): CalibrationRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = splitCsvLine(lines[0] ?? "");
  if (header.join(",") !== CALIBRATION_COLUMNS.join(",")) throw new Error(`calibration CSV: header must be ${CALIBRATION_COLUMNS.join(",")}`);
  const seen = new Set<string>();
  return lines.slice(1).map((line) => {
    const f = splitCsvLine(line);
    if (f.length !== CALIBRATION_COLUMNS.length) throw new Error(`calibration CSV: ${f.length} fields in ${line}`);
    const [row_id, kind, source, market, powertrain, age, km, soh, retained, derived_from, note] = f as [string, ...string[]];
    if (seen.has(row_id)) throw new Error(`calibration CSV: duplicate row_id ${row_id}`);
    seen.add(row_id);
    if (kind !== "published" && kind !== "synthesised") throw new Error(`calibration CSV: ${row_id}.kind is ${kind}`);
    if (powertrain !== "BEV" && powertrain !== "PHEV") throw new Error(`calibration CSV: ${row_id}.powertrain is ${powertrain}`);
    const row: CalibrationRow = {
      row_id,
      kind,
      source: source!,
      market: market!,
      powertrain,
      age_months: finite(age!, "age_months", row_id),
      odometer_km: finite(km!, "odometer_km", row_id),
      soh_pct: finite(soh!, "soh_pct", row_id),
      retained_pct: finite(retained!, "retained_pct", row_id),
      derived_from: derived_from!,
      note: note!,
    };
    if (row.retained_pct <= 0 || row.retained_pct > 100) throw new Error(`calibration CSV: ${row_id}.retained_pct out of (0, 100]`);
    if (row.soh_pct <= 0 || row.soh_pct > 100) throw new Error(`calibration CSV: ${row_id}.soh_pct out of (0, 100]`);
    if ((kind === "synthesised") !== (row.derived_from !== "")) throw new Error(`calibration CSV: ${row_id}: derived_from is set exactly for synthesised rows`);
    return row;
  });
}

/**
 * The price basis of each source, as the source states it (data/residual-value/README.md): one target
 * never mixes bases, each basis gets its own term in the fit. "unstated_uk": UK guide figures whose
 * page does not say whether they are trade, part-exchange or retail values.
 */
export const PRICE_BASES = ["trade_de", "part_exchange_uk", "unstated_uk", "listing_us"] as const;
export type PriceBasis = (typeof PRICE_BASES)[number];
export const PRICE_BASIS_BY_SOURCE: Readonly<Record<string, PriceBasis>> = {
  "twaice-autovista-2020": "trade_de",
  "cdl-vis-2025": "part_exchange_uk",
  "cox-europe-2025": "unstated_uk",
  "wired-2024": "unstated_uk",
  "caphpi-regit-2024": "unstated_uk",
  "iseecars-2024": "listing_us",
  "iseecars-2025": "listing_us",
  "iseecars-3yr-2024": "listing_us",
};

/** A published row's price basis; a source without one is refused (a new source needs its basis stated). */
export function priceBasisOf(row: Pick<CalibrationRow, "row_id" | "source">): PriceBasis {
  const b = PRICE_BASIS_BY_SOURCE[row.source];
  if (b === undefined) throw new Error(`calibration CSV: ${row.row_id}: source ${row.source} has no price basis (PRICE_BASIS_BY_SOURCE)`);
  return b;
}

/** SHA-256 (hex) of the CSV bytes: the model file names the exact dataset it was fitted on. */
export function datasetHash(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
