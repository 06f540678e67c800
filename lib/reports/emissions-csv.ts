import type { EmissionsReport } from "./emissions";

/** CONTRACT "Reports": these columns first, in this order. */
export const EMISSIONS_CSV_COLUMNS = ["device_id", "device_name", "powertrain", "distance_km", "energy_kwh", "fuel_l", "co2_kg", "distance_method", "energy_method"] as const;

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF (quotes doubled). */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const sum3 = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x, 0) * 1000) / 1000;

/**
 * The report as CSV: header, one row per vehicle of the tenant (zeros where it did not move), then a
 * `TOTAL` row whose figures are the column sums (an empty `fuel_l` counts as 0). CRLF line ends (RFC 4180).
 */
export function emissionsCsv(report: EmissionsReport): string {
  const lines = [EMISSIONS_CSV_COLUMNS.join(",")];
  for (const v of report.vehicles) {
    lines.push([v.device_id, v.device_name, v.powertrain, v.distance_km, v.energy_kwh, v.fuel_l, v.co2_kg, v.distance_method, v.energy_method].map(csvField).join(","));
  }
  const vs = report.vehicles;
  lines.push(
    ["TOTAL", "", "", sum3(vs.map((v) => v.distance_km)), sum3(vs.map((v) => v.energy_kwh)), sum3(vs.map((v) => v.fuel_l ?? 0)), sum3(vs.map((v) => v.co2_kg)), "", ""]
      .map(csvField)
      .join(","),
  );
  return `${lines.join("\r\n")}\r\n`;
}
