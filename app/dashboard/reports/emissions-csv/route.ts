import { checkReportPeriod } from "@/lib/dashboard/report-period";
import { dashboardRouteCtx, plainAnswer } from "@/lib/dashboard/route-session";
import { getEmissionsReport } from "@/lib/reports/get-emissions-report";

export const dynamic = "force-dynamic";

/** The emissions CSV of the session's tenant (endpoint 8's verb, `format=csv`). 401 signed out, 400 for bad dates. */
export async function GET(request: Request): Promise<Response> {
  const ctx = await dashboardRouteCtx(request, "dashboard.emissionsCsv");
  if (!ctx) return plainAnswer(401, "Sign in to the dashboard to download reports.");
  const q = new URL(request.url).searchParams;
  const period = checkReportPeriod({ start_date: q.get("start_date"), end_date: q.get("end_date") });
  if (!period.ok) return plainAnswer(400, period.errors.map((e) => `${e.field}: ${e.message}`).join("\n"));
  return (await getEmissionsReport({ ctx, input: { start_date: period.start_date, end_date: period.end_date, format: "csv" } })) as Response;
}
