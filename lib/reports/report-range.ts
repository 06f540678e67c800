import { ValidationError } from "@/lib/errors";
import { MAX_REPORT_DAYS } from "@/lib/schemas/reports-emissions";

const DAY_MS = 86_400_000;

/** A report's period: UTC calendar days, both ends included. */
export interface ReportRange {
  start_date: string;
  end_date: string;
  /** `start_date` 00:00:00.000Z. */
  start: Date;
  /** `end_date` 23:59:59.999Z. */
  end: Date;
  /** Days counting both ends (1–MAX_REPORT_DAYS). */
  days: number;
}

/**
 * The cross-field date rules of every report (CONTRACT "Reports"/"Settled details"), shared by the
 * emissions (endpoint 8) and CSRD (endpoint 13) reports: the flat input schemas check each date on its
 * own (`reportDate()`), this checks them together. `start_date <= end_date`, at most MAX_REPORT_DAYS
 * days counting both ends, `end_date` not after today (UTC); anything else is a ValidationError (400).
 */
export function reportRange(input: { start_date: string; end_date: string }, now: Date): ReportRange {
  const start = Date.parse(`${input.start_date}T00:00:00Z`);
  const end = Date.parse(`${input.end_date}T00:00:00Z`);
  const today = now.toISOString().slice(0, 10);
  if (start > end) throw new ValidationError("start_date is after end_date", [{ field: "start_date", message: "must not be after end_date" }]);
  const days = (end - start) / DAY_MS + 1;
  if (days > MAX_REPORT_DAYS) {
    throw new ValidationError(`the range is longer than ${MAX_REPORT_DAYS} days`, [{ field: "end_date", message: `at most ${MAX_REPORT_DAYS} days counting both ends` }]);
  }
  if (input.end_date > today) throw new ValidationError("end_date is after today (UTC)", [{ field: "end_date", message: `must not be after ${today}` }]);
  return { start_date: input.start_date, end_date: input.end_date, start: new Date(start), end: new Date(end + DAY_MS - 1), days };
}
