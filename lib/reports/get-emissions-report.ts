import type { TenantCtx } from "@/lib/context";
import { ValidationError } from "@/lib/errors";
import { MAX_REPORT_DAYS } from "@/lib/schemas/reports-emissions";
import { emissionsReport, type EmissionsReport } from "./emissions";
import { emissionsCsv } from "./emissions-csv";
import { loadEmissionsInputs } from "./queries/load-emissions-inputs";

const DAY_MS = 86_400_000;

/**
 * Endpoint 8. The cross-field date rules (CONTRACT "Reports"/"Settled details") are checked here: the
 * flat input schema validates each date on its own. The period is [start 00:00Z, end 23:59:59.999Z].
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
  const start = Date.parse(`${input.start_date}T00:00:00Z`);
  const end = Date.parse(`${input.end_date}T00:00:00Z`);
  const today = now.toISOString().slice(0, 10);
  if (start > end) throw new ValidationError("start_date is after end_date", [{ field: "start_date", message: "must not be after end_date" }]);
  if ((end - start) / DAY_MS + 1 > MAX_REPORT_DAYS) {
    throw new ValidationError(`the range is longer than ${MAX_REPORT_DAYS} days`, [{ field: "end_date", message: `at most ${MAX_REPORT_DAYS} days counting both ends` }]);
  }
  if (input.end_date > today) throw new ValidationError("end_date is after today (UTC)", [{ field: "end_date", message: `must not be after ${today}` }]);

  const vehicles = await loadEmissionsInputs({ ctx, since: new Date(start).toISOString(), until: new Date(end + DAY_MS - 1).toISOString() });
  const report = emissionsReport({ periodStart: input.start_date, periodEnd: input.end_date, vehicles, now });
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
