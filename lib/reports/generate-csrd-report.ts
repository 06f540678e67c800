import { renderCsrdPdfInWorker } from "@/lib/certificates/pdf/render-certificate-pdf-in-worker";
import type { TenantCtx } from "@/lib/context";
import { env } from "@/lib/env";
import { computeGreenFleet } from "@/lib/scores/green-fleet";
import { loadFleetInputsBetween, toGreenFleetDevice } from "@/lib/scores/queries/load-fleet-inputs";
import { csrdReport, type CsrdReport } from "./csrd";
import { buildEmissionsReport } from "./get-emissions-report";
import { renderCsrdPdf } from "./pdf/render-csrd-pdf";
import { loadCsrdInputs } from "./queries/load-csrd-inputs";
import { reportRange } from "./report-range";

/**
 * Endpoint 13. The same date rules as the emissions report (reportRange), the emissions report of the
 * period (one energy accounting), the green fleet score over exactly the same window (the fleet's
 * figures are loaded once for both), and the CSRD extras (lease contracts, monthly activity, contract
 * factor, reporting role): four SQL round trips at most whatever the fleet size. PDF by default, JSON with `format=json`.
 */
export async function generateCsrdReport({
  ctx,
  input,
  now = new Date(),
}: {
  ctx: TenantCtx;
  input: { start_date: string; end_date: string; format: "pdf" | "json" };
  now?: Date;
}): Promise<CsrdReport | Response> {
  const range = reportRange(input, now);
  const fleet = await loadFleetInputsBetween({ ctx, start: range.start, end: range.end, periodDays: range.days });
  const emissions = await buildEmissionsReport({ ctx, range, now, fleet });
  // Freshness is judged at the period's end (a report of a past month is not "stale"), never after now.
  const scoredAt = new Date(Math.min(now.getTime(), range.end.getTime()));
  const greenFleet = computeGreenFleet({ period_days: range.days, devices: fleet.devices.map(toGreenFleetDevice) }, { now: scoredAt });
  const extras = await loadCsrdInputs({ ctx, since: range.start.toISOString(), until: range.end.toISOString() });
  const report = csrdReport({
    emissions,
    periodDays: range.days,
    greenFleet,
    leases: extras.leases,
    reportingRole: extras.reportingRole,
    monthlyActivity: extras.monthlyActivity,
    contractFactorGPerKwh: extras.contractFactorGPerKwh,
    now,
  });
  if (input.format === "json") return report;
  // On the PDF worker pool (200–400 ms of layout off the event loop); FDP_PDF_WORKERS=0 renders in-process.
  const pdf = env().FDP_PDF_WORKERS === 0 ? await renderCsrdPdf(report) : await renderCsrdPdfInWorker(report);
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="csrd-${input.start_date}-${input.end_date}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
