import { checkReportPeriod } from "@/lib/dashboard/report-period";
import { dashboardRouteCtx, plainAnswer } from "@/lib/dashboard/route-session";
import { generateCsrdReport } from "@/lib/reports/generate-csrd-report";

export const dynamic = "force-dynamic";

/** The CSRD report PDF of the session's tenant (endpoint 13's verb, `format=pdf`). 401 signed out, 400 for bad dates. */
export async function GET(request: Request): Promise<Response> {
  const ctx = await dashboardRouteCtx(request, "dashboard.csrdPdf");
  if (!ctx) return plainAnswer(401, "Sign in to the dashboard to download reports.");
  const q = new URL(request.url).searchParams;
  const period = checkReportPeriod({ start_date: q.get("start_date"), end_date: q.get("end_date") });
  if (!period.ok) return plainAnswer(400, period.errors.map((e) => `${e.field}: ${e.message}`).join("\n"));
  return (await generateCsrdReport({ ctx, input: { start_date: period.start_date, end_date: period.end_date, format: "pdf" } })) as Response;
}
