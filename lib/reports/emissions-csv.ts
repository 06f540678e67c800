import type { EmissionsReport } from "./emissions";

/** CONTRACT "Reports": these columns first, in this order. */
const EMISSIONS_CSV_COLUMNS = ["device_id", "device_name", "powertrain", "distance_km", "energy_kwh", "fuel_l", "co2_kg", "distance_method", "energy_method"] as const;

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF (quotes doubled). */
function rfc4180(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * A text cell (CONTRACT "Reliability and hardening"): one that begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading `'`, so a spreadsheet shows it as text instead of evaluating it as a
 * formula (a make of `=HYPERLINK(...)` comes straight from an OEM payload; issue 28 #5).
 */
export function csvText(value: string | null): string {
  if (value === null) return "";
  return rfc4180(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/**
 * A numeric cell: written as the number it is, never prefixed, so a negative figure stays a number a
 * spreadsheet can sum. Which cells are numbers is decided by the column (the report's typed fields),
 * not by looking at the text, so a text value such as a make of "-1" is still neutralised.
 */
export function csvNumber(value: number | null): string {
  return value === null ? "" : String(value);
}

const sum3 = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x, 0) * 1000) / 1000;

/**
 * The report as CSV: header, one row per vehicle of the tenant (zeros where it did not move), then a
 * `TOTAL` row whose figures are the column sums (an empty `fuel_l` counts as 0). CRLF line ends (RFC 4180).
 */
export function emissionsCsv(report: EmissionsReport): string {
  const lines = [EMISSIONS_CSV_COLUMNS.join(",")];
  for (const v of report.vehicles) {
    lines.push(
      [
        csvText(v.device_id),
        csvText(v.device_name),
        csvText(v.powertrain),
        csvNumber(v.distance_km),
        csvNumber(v.energy_kwh),
        csvNumber(v.fuel_l),
        csvNumber(v.co2_kg),
        csvText(v.distance_method),
        csvText(v.energy_method),
      ].join(","),
    );
  }
  const vs = report.vehicles;
  lines.push(
    [
      csvText("TOTAL"),
      "",
      "",
      csvNumber(sum3(vs.map((v) => v.distance_km))),
      csvNumber(sum3(vs.map((v) => v.energy_kwh))),
      csvNumber(sum3(vs.map((v) => v.fuel_l ?? 0))),
      csvNumber(sum3(vs.map((v) => v.co2_kg))),
      "",
      "",
    ].join(","),
  );
  return `${lines.join("\r\n")}\r\n`;
}
