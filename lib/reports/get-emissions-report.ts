import type { TenantCtx } from "@/lib/context";
import { emissionsReport, type EmissionsReport } from "./emissions";
import { emissionsCsv } from "./emissions-csv";
import { loadFleetInputsBetween, type FleetInputs } from "@/lib/scores/queries/load-fleet-inputs";
import { emissionsInputs } from "./queries/load-emissions-inputs";
import { reportRange, type ReportRange } from "./report-range";

/**
 * The emissions report of a checked period (two SQL round trips at most, load-emissions-inputs.ts):
 * endpoint 8's JSON, and the base the CSRD report (endpoint 13) is built from, so that both carry the
 * same figures. `fleet`: the period's fleet inputs when the caller has them (the CSRD report scores
 * the green fleet over the same window), so they are not loaded twice.
 */
export async function buildEmissionsReport({ ctx, range, now, fleet }: { ctx: TenantCtx; range: ReportRange; now: Date; fleet?: FleetInputs }): Promise<EmissionsReport> {
  const inputs = fleet ?? (await loadFleetInputsBetween({ ctx, start: range.start, end: range.end, periodDays: range.days }));
  const vehicles = await emissionsInputs({ ctx, fleet: inputs });
  return emissionsReport({ periodStart: range.start_date, periodEnd: range.end_date, vehicles, now });
}

/**
 * Endpoint 8. The cross-field date rules (CONTRACT "Reports"/"Settled details") are checked by
 * reportRange: the flat input schema validates each date on its own. The period is
 * [start 00:00Z, end 23:59:59.999Z].
 */
export async function getEmissionsReport({
  ctx,
  input,
  now = new Date(),
}: {
  ctx: TenantCtx;
  input: { start_date: string; end_date: string; format: "json" | "csv" };
  now?: Date;
}): Promise<EmissionsReport | Response> {
  const range = reportRange(input, now);
  const report = await buildEmissionsReport({ ctx, range, now });
  if (input.format === "json") return report;
  return new Response(emissionsCsv(report), {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="emissions-${input.start_date}-${input.end_date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
