import { describe, expect, it } from "vitest";
import { type AlertEvidence, lifecycleTarget, lifecycleTechnicalData, raisedEvidence, resolvedTechnicalData, resolvesAlert, updatedEvidence } from "@/lib/alerts/alert-lifecycle";
import type { AlertDraft } from "@/lib/detectors/types";
import type { Severity } from "@/lib/vocabulary/alerts";

const T = (h: number) => new Date(Date.UTC(2026, 10, 17, h));
const draft = (severity: Severity, h: number, value: number | null, prediction = `${severity} ${value}`): AlertDraft => ({
  deviceId: "d",
  agent: "battery",
  severity,
  prediction,
  confidence: 0.8,
  technicalData: { soh_pct: value },
  dedupeKey: "battery:soh_low",
  measure: value === null ? null : { field: "soh_pct", value, worst: value, worse: "lower" },
  observedAt: T(h),
  firstObservedAt: T(h),
});

describe("lifecycleTarget: raise alongside or update", () => {
  it("raises when nothing is open or every open alert is less severe; else updates the most severe open one", () => {
    const open = (...s: Severity[]) => s.map((severity) => ({ severity }));
    expect(lifecycleTarget(open(), draft("INFO", 1, 1))).toBeNull();
    expect(lifecycleTarget(open("WARNING"), draft("CRITICAL", 1, 1))).toBeNull();
    expect(lifecycleTarget(open("INFO", "WARNING"), draft("CRITICAL", 1, 1))).toBeNull();
    expect(lifecycleTarget(open("WARNING"), draft("WARNING", 1, 1))).toBe(0);
    expect(lifecycleTarget(open("WARNING", "CRITICAL"), draft("WARNING", 1, 1))).toBe(1);
    expect(lifecycleTarget(open("CRITICAL", "WARNING"), draft("INFO", 1, 1))).toBe(0);
  });
});

describe("updatedEvidence", () => {
  const critical: AlertEvidence = raisedEvidence(draft("CRITICAL", 10, 58));

  it("counts, widens first/last seen, keeps the worst value and takes the latest evidence of its own severity", () => {
    const e = updatedEvidence(critical, draft("CRITICAL", 12, 57));
    expect(e).toMatchObject({ severity: "CRITICAL", occurrences: 2, firstSeenAt: T(10), lastSeenAt: T(12), worstValue: 57, latestValue: 57, prediction: "CRITICAL 57" });
    const better = updatedEvidence(e, draft("CRITICAL", 13, 59));
    expect(better).toMatchObject({ occurrences: 3, worstValue: 57, latestValue: 59, prediction: "CRITICAL 59" });
  });

  it("a less severe occurrence updates counts and the latest value, not the text of the more severe alert", () => {
    const e = updatedEvidence(critical, draft("WARNING", 12, 65));
    expect(e).toMatchObject({ severity: "CRITICAL", occurrences: 2, lastSeenAt: T(12), worstValue: 58, latestValue: 65, prediction: "CRITICAL 58" });
  });

  it("a late occurrence is counted and may be the worst, but is not the latest evidence", () => {
    const e = updatedEvidence(critical, draft("CRITICAL", 8, 50));
    expect(e).toMatchObject({ occurrences: 2, firstSeenAt: T(8), lastSeenAt: T(10), worstValue: 50, latestValue: 58, prediction: "CRITICAL 58" });
  });

  it("a rule without a measure keeps null values; the answer's keys fall back to created_at", () => {
    const e = updatedEvidence(raisedEvidence(draft("WARNING", 10, null)), draft("WARNING", 11, null));
    expect(e).toMatchObject({ worstValue: null, latestValue: null, occurrences: 2 });
    expect(lifecycleTechnicalData({ occurrences: 1, firstSeenAt: null, lastSeenAt: null, worstValue: null, latestValue: null, createdAt: T(3) })).toEqual({
      occurrences: 1,
      first_occurrence_at: T(3).toISOString(),
      last_occurrence_at: T(3).toISOString(),
      worst_value: null,
      latest_value: null,
    });
  });
});

describe("resolvesAlert: a contradiction closes the open alerts it contradicts, and no other", () => {
  const resolution = {
    dedupeKey: "odometer_integrity:rollback",
    evidenceBefore: new Date("2026-11-17T09:00:00Z"),
    levelAtMost: { field: "earlier_max_km", value: 50_009 },
    reason: "Resolved by FDP: …",
    evidence: { contradicting_km: 50_008 },
  };
  const alert = (o: Partial<{ dedupeKey: string; acknowledged: boolean; lastSeenAt: Date; technicalData: Record<string, unknown> }> = {}) => ({
    dedupeKey: "odometer_integrity:rollback",
    acknowledged: false,
    lastSeenAt: new Date("2026-11-17T08:00:00Z"),
    technicalData: { earlier_max_km: 50_003 } as Record<string, unknown>,
    ...o,
  });

  it("an open alert of the problem, evidenced before the contradiction, from a level the reading is back at", () => {
    expect(resolvesAlert(alert(), resolution)).toBe(true);
    expect(resolvesAlert(alert({ technicalData: { earlier_max_km: 50_009 } }), resolution)).toBe(true);
  });

  it("not another problem, not an acknowledged alert, not one evidenced at or after the contradiction, not one from a higher level", () => {
    expect(resolvesAlert(alert({ dedupeKey: "odometer_integrity:jump" }), resolution)).toBe(false);
    expect(resolvesAlert(alert({ acknowledged: true }), resolution)).toBe(false);
    expect(resolvesAlert(alert({ lastSeenAt: new Date("2026-11-17T09:00:00Z") }), resolution)).toBe(false);
    expect(resolvesAlert(alert({ technicalData: { earlier_max_km: 50_009.5 } }), resolution)).toBe(false);
    expect(resolvesAlert(alert({ technicalData: {} }), resolution)).toBe(false);
    expect(resolvesAlert(alert({ technicalData: { earlier_max_km: "50003" } }), resolution)).toBe(false);
  });

  it("the resolution is added to the evidence, which is otherwise kept", () => {
    const at = new Date("2026-11-17T09:05:00Z");
    expect(resolvedTechnicalData({ earlier_max_km: 50_003, rule: "rollback" }, resolution, at, "fdp:odometer_integrity")).toEqual({
      earlier_max_km: 50_003,
      rule: "rollback",
      resolution: { resolved_by: "fdp:odometer_integrity", resolved_at: "2026-11-17T09:05:00.000Z", reason: "Resolved by FDP: …", contradicting_km: 50_008 },
    });
  });
});
