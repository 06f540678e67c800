import { describe, expect, it } from "vitest";
import {
  ageMonths,
  DAY_MS,
  distanceKm,
  harshEventsInWindow,
  KM_PER_YEAR_MIN_SPAN_DAYS,
  kmPerYear,
  monthsBetween,
  odometerEvidenceJson,
  odometerEvidenceSentence,
  odometerManipulation,
  SOH_TREND_MIN_SPAN_DAYS,
  sohTrendPpPerYear,
} from "@/lib/scores/derived-measures";

const at = (iso: string) => new Date(iso);
const daysAfter = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);

describe("sohTrendPpPerYear", () => {
  const t0 = at("2026-01-01T00:00:00Z");
  it("is the signed change per year between the early and the latest reading", () => {
    expect(sohTrendPpPerYear({ value: 95, at: daysAfter(t0, 365) }, { value: 97, at: t0 })).toBeCloseTo(-2, 10);
    expect(sohTrendPpPerYear({ value: 96, at: daysAfter(t0, 73) }, { value: 96.4, at: t0 })).toBeCloseTo(-2, 10);
  });
  it("is unknown when the readings are closer than the minimum span, or one is missing", () => {
    expect(sohTrendPpPerYear({ value: 90, at: daysAfter(t0, SOH_TREND_MIN_SPAN_DAYS - 1) }, { value: 97, at: t0 })).toBeNull();
    expect(sohTrendPpPerYear({ value: 90, at: daysAfter(t0, SOH_TREND_MIN_SPAN_DAYS) }, { value: 97, at: t0 })).not.toBeNull();
    expect(sohTrendPpPerYear(null, { value: 97, at: t0 })).toBeNull();
    expect(sohTrendPpPerYear({ value: 97, at: t0 }, null)).toBeNull();
  });
});

describe("distanceKm and kmPerYear", () => {
  const t0 = at("2026-03-01T00:00:00Z");
  it("annualise the odometer span once the readings are a week apart", () => {
    expect(distanceKm(1000, 1600)).toBe(600);
    expect(distanceKm(1600, 1000)).toBe(0);
    expect(distanceKm(null, 1000)).toBeNull();
    expect(kmPerYear(600, t0, daysAfter(t0, 30))).toBeCloseTo(7300, 6);
    expect(kmPerYear(600, t0, daysAfter(t0, KM_PER_YEAR_MIN_SPAN_DAYS - 0.01))).toBeNull();
    expect(kmPerYear(null, t0, daysAfter(t0, 30))).toBeNull();
  });
});

describe("ageMonths", () => {
  const now = at("2026-11-23T12:00:00Z");
  it("counts months from the lease start, and is unknown in the future or when not a date", () => {
    expect(ageMonths("2025-11-23", now)).toBeCloseTo(12, 6);
    expect(ageMonths("2026-11-24", now)).toBeNull();
    expect(ageMonths(null, now)).toBeNull();
    expect(ageMonths("not-a-date", now)).toBeNull();
    expect(monthsBetween(at("2026-01-31T00:00:00Z"), at("2026-03-01T00:00:00Z"))).toBeCloseTo(2 - 30 / 30, 6);
    expect(monthsBetween(now, at("2020-01-01T00:00:00Z"))).toBe(0);
  });
});

describe("harshEventsInWindow", () => {
  const start = at("2026-09-01T00:00:00Z");
  const inside = at("2026-10-01T00:00:00Z");
  const before = at("2026-08-01T00:00:00Z");
  it("trusts the OEM's count when it reported events in the window, else the derived count, else says unknown", () => {
    expect(harshEventsInWindow({ oemCount: 4, derivedCount: 9, reportedAt: inside, denseSpeedAt: inside }, start)).toBe(4);
    expect(harshEventsInWindow({ oemCount: 0, derivedCount: 9, reportedAt: inside, denseSpeedAt: null }, start)).toBe(0);
    expect(harshEventsInWindow({ oemCount: 4, derivedCount: 9, reportedAt: before, denseSpeedAt: inside }, start)).toBe(9);
    expect(harshEventsInWindow({ oemCount: 4, derivedCount: 9, reportedAt: before, denseSpeedAt: before }, start)).toBeNull();
    expect(harshEventsInWindow({ oemCount: 0, derivedCount: 0, reportedAt: null, denseSpeedAt: null }, start)).toBeNull();
  });
});

describe("odometerManipulation", () => {
  // Changed in tas-2027.01: the knockout follows the readings' evidence, not an alert count (issue 8).
  const evidence = {
    highest: { km: 80_000, at: new Date("2026-10-01T00:00:00Z") },
    firstLower: { km: 15_000, at: new Date("2026-10-02T00:00:00Z") },
    latest: { km: 15_050, at: new Date("2026-10-05T00:00:00Z") },
    readingsSince: 4,
  };
  it("is true with evidence, false when readings exist without it, unknown without readings", () => {
    expect(odometerManipulation(15_050, evidence)).toBe(true);
    expect(odometerManipulation(1234, null)).toBe(false);
    expect(odometerManipulation(null, null)).toBeNull();
  });
  it("names the readings in its sentence and answer fields", () => {
    const sentence = odometerEvidenceSentence(evidence);
    expect(sentence).toContain("80000 km at 2026-10-01T00:00:00.000Z");
    expect(sentence).toContain("15000 km at 2026-10-02T00:00:00.000Z");
    expect(sentence).toContain("4 reading(s)");
    expect(odometerEvidenceJson(evidence)).toEqual({
      readings: [
        { role: "highest_earlier", value: 80_000, unit: "km", at: "2026-10-01T00:00:00.000Z" },
        { role: "first_lower", value: 15_000, unit: "km", at: "2026-10-02T00:00:00.000Z" },
        { role: "latest", value: 15_050, unit: "km", at: "2026-10-05T00:00:00.000Z" },
      ],
      readings_since: 4,
    });
  });
});
