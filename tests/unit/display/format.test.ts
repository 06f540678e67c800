import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMonth, formatEur, formatEurCents, formatKm, formatNumber, formatPct, formatScore, formatTime, NOT_MEASURED } from "@/lib/display/format";
import { keyWords, plainWords } from "@/lib/display/words";

describe("display rules", () => {
  it("write one precision per kind of figure, thousands grouped with a comma", () => {
    expect(formatScore(97.44)).toBe("97.4 / 100");
    expect(formatScore(97)).toBe("97.0 / 100");
    expect(formatKm(38_047.5)).toBe("38,048 km");
    expect(formatPct(96)).toBe("96.0 %");
    expect(formatPct(71.4, 0)).toBe("71 %");
    expect(formatNumber(88_927.84, 1)).toBe("88,927.8");
    expect(formatEur(24_300.4)).toBe("€24,300");
    expect(formatEurCents(3.405)).toBe("€3.41");
  });

  it("say 'not measured' (or the caller's words) for a missing or non-finite value, never 0 or a dash", () => {
    for (const v of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatKm(v)).toBe(NOT_MEASURED);
      expect(formatScore(v, "cannot be computed")).toBe("cannot be computed");
    }
    expect(formatKm(0)).toBe("0 km");
    expect(formatNumber(-0.04, 1)).toBe("0.0");
  });

  it("write days and times in the fleet's time zone (Helsinki), one style each", () => {
    // 22:30 UTC on 28 Nov is 00:30 on 29 Nov in Helsinki (UTC+2 in winter).
    expect(formatDate("2026-11-28T22:30:00Z")).toBe("29 Nov 2026");
    expect(formatDateTime("2026-11-28T22:30:00Z")).toBe("29 Nov 2026, 00:30");
    // Summer time: UTC+3.
    expect(formatDateTime(new Date("2026-07-01T06:00:00Z"))).toBe("1 Jul 2026, 09:00");
    // A calendar month of a UTC calendar day: not moved into the next month by Helsinki's offset.
    expect(formatMonth("2026-11-30T23:30:00Z")).toBe("Nov 2026");
    expect(formatMonth(Date.UTC(2026, 0, 1))).toBe("Jan 2026");
    expect(formatTime("2026-11-28T05:00:00Z")).toBe("07:00");
    expect(formatTime("2026-11-28T05:00:00Z", true)).toBe("Sat 07:00");
    // A calendar day stays that day whatever the zone.
    expect(formatDate("2026-11-28")).toBe("28 Nov 2026");
    expect(formatDate(null)).toBe("never");
    expect(formatDate("not a date", "unknown")).toBe("unknown");
  });
});

describe("plain words", () => {
  it("turn the vocabulary keys and ISO instants inside a sentence into words and the fleet's time", () => {
    expect(plainWords("grades the vehicle F (knockout soh_below_60); odometer_km outside the range")).toBe(
      "grades the vehicle F (knockout battery state of health below 60 %); odometer outside the range",
    );
    expect(plainWords("The odometer read 52193.5 km at 2026-11-07T11:40:12.000Z.")).toBe("The odometer read 52193.5 km at 7 Nov 2026, 13:40.");
    expect(plainWords("event_severity: 0.35 severity-weighted events")).toBe("event severity: 0.35 severity-weighted events");
  });

  it("a key without words of its own: its unit suffix and acronyms spelled out (alert evidence, unknown keys in sentences)", () => {
    expect(keyWords("drop_pp")).toBe("drop (percentage points)");
    expect(keyWords("soh_pct")).toBe("SoH (%)");
    expect(keyWords("previous_state")).toBe("previous state");
    expect(keyWords("max_dc_kw")).toBe("max DC (kW)");
    expect(keyWords("pct")).toBe("pct"); // a lone word is not a unit suffix
    expect(plainWords("the soc_drop_pp was large")).toBe("the SoC drop (percentage points) was large");
  });
});
