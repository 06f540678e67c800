import { describe, expect, it } from "vitest";
import { checkReportPeriod, defaultReportPeriod } from "@/lib/dashboard/report-period";

const NOW = new Date("2026-11-24T05:00:00Z");

describe("checkReportPeriod (the dashboard's report form, the API's rules)", () => {
  it("accepts a period ending today and counts both ends", () => {
    expect(checkReportPeriod({ start_date: "2026-10-26", end_date: "2026-11-24" }, NOW)).toEqual({ ok: true, start_date: "2026-10-26", end_date: "2026-11-24", days: 30 });
  });

  it("names the field of each refusal instead of throwing", () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ start_date: "", end_date: "2026-11-01" }, "start_date", /YYYY-MM-DD/],
      [{ start_date: "2026-02-30", end_date: "2026-03-01" }, "start_date", /calendar date/],
      [{ start_date: "2026-11-10", end_date: "2026-11-01" }, "start_date", /after end_date/],
      [{ start_date: "2025-01-01", end_date: "2026-01-02" }, "end_date", /366/],
      [{ start_date: "2026-11-20", end_date: "2026-11-25" }, "end_date", /2026-11-24/],
      [{ start_date: "1999-12-31", end_date: "2000-01-02" }, "start_date", /2000-01-01/],
    ];
    for (const [input, field, message] of cases) {
      const check = checkReportPeriod(input, NOW);
      expect(check.ok, JSON.stringify(input)).toBe(false);
      if (check.ok) continue;
      expect(check.errors.find((e) => e.field === field)?.message, JSON.stringify(input)).toMatch(message);
    }
  });

  it("accepts exactly 366 days, and the default is the last 30 days with today", () => {
    expect(checkReportPeriod({ start_date: "2025-11-24", end_date: "2026-11-24" }, NOW)).toMatchObject({ ok: true, days: 366 });
    const d = defaultReportPeriod(NOW);
    expect(d).toEqual({ start_date: "2026-10-26", end_date: "2026-11-24" });
    expect(checkReportPeriod(d, NOW)).toMatchObject({ ok: true, days: 30 });
  });
});
