import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { reportRange } from "@/lib/reports/report-range";

/** The cross-field date rules shared by the emissions and CSRD reports (CONTRACT "Reports"). */
const now = new Date("2026-11-24T04:00:00Z");

describe("reportRange", () => {
  it("covers whole UTC days, both ends counted", () => {
    expect(reportRange({ start_date: "2026-01-01", end_date: "2026-01-31" }, now)).toEqual({
      start_date: "2026-01-01",
      end_date: "2026-01-31",
      start: new Date("2026-01-01T00:00:00.000Z"),
      end: new Date("2026-01-31T23:59:59.999Z"),
      days: 31,
    });
    expect(reportRange({ start_date: "2026-11-24", end_date: "2026-11-24" }, now).days).toBe(1);
    expect(reportRange({ start_date: "2025-11-24", end_date: "2026-11-24" }, now).days).toBe(366);
  });

  it.each([
    ["start after end", { start_date: "2026-02-02", end_date: "2026-02-01" }, "start_date"],
    ["367 days", { start_date: "2025-11-23", end_date: "2026-11-24" }, "end_date"],
    ["end after today (UTC)", { start_date: "2026-11-01", end_date: "2026-11-25" }, "end_date"],
  ])("refuses %s", (_name, input, field) => {
    let caught: unknown;
    try {
      reportRange(input, now);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).details?.map((d) => d.field)).toEqual([field]);
  });
});
