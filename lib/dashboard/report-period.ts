import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { reportRange } from "@/lib/reports/report-range";
import { reportPeriodQueryFields } from "@/lib/schemas/reports-emissions";

const periodSchema = z.object(reportPeriodQueryFields);

type ReportPeriodCheck = { ok: true; start_date: string; end_date: string; days: number } | { ok: false; errors: { field: string; message: string }[] };

/**
 * The dashboard's report period, checked by exactly the API's rules: each date by the emissions and
 * CSRD query schemas, then the cross-field rules of reportRange (order, at most MAX_REPORT_DAYS days,
 * not after today UTC). Refusals come back as field messages for the form, never as an exception.
 */
export function checkReportPeriod(input: { start_date?: unknown; end_date?: unknown }, now = new Date()): ReportPeriodCheck {
  const parsed = periodSchema.safeParse({ start_date: input.start_date ?? "", end_date: input.end_date ?? "" });
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? "dates"), message: i.message })) };
  }
  try {
    const range = reportRange(parsed.data, now);
    return { ok: true, start_date: range.start_date, end_date: range.end_date, days: range.days };
  } catch (err) {
    if (err instanceof ValidationError)
      return { ok: false, errors: (err.details ?? [{ field: "dates", message: err.message }]).map((d) => ({ field: d.field, message: d.message })) };
    throw err;
  }
}

/** The form's default: the last 30 days, today (UTC) included. */
export function defaultReportPeriod(now = new Date()): { start_date: string; end_date: string } {
  const end = now.toISOString().slice(0, 10);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  return { start_date: start, end_date: end };
}
