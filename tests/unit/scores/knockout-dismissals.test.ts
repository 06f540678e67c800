import { describe, expect, it } from "vitest";
import { buildEolSummary, type EolInput } from "@/lib/scores/eol-summary";
import type { KnockoutDismissal, OdometerEvidence } from "@/lib/devices/reading-rows";
import { computeTas } from "@/lib/scores/tas";
import { tasInput } from "../../helpers/tas-input";

/** The knockout rule with a reviewer's dismissals (lib/scores/knockout-evidence.ts, docs/methodology/tas.md "Dismissed alerts"). */
const now = new Date("2026-11-20T12:00:00Z");
const t = (h: number) => new Date(Date.UTC(2026, 10, 18, h));
const dismissal = (knockout: KnockoutDismissal["knockout"], from: Date, to: Date): KnockoutDismissal => ({
  knockout,
  alert_id: "alt_1",
  from,
  to,
  dismissed_at: new Date("2026-11-19T09:00:00Z"),
  reason: "Cluster replaced, invoice on file",
});
const clocked = (latestKm = 15_080): OdometerEvidence => ({
  highest: { km: 80_200, at: t(2) },
  firstLower: { km: 15_000, at: t(3) },
  latest: { km: latestKm, at: t(5) },
  readingsSince: 3,
});

describe("TAS knockouts with dismissals", () => {
  const lowSoh = (dismissals?: KnockoutDismissal[]) =>
    computeTas(tasInput({ battery: { soh_pct: 55, soh_at: t(4), soh_trend_pp_per_year: null }, knockout_dismissals: dismissals }), { now });
  const odo = (e: OdometerEvidence, dismissals?: KnockoutDismissal[]) =>
    computeTas(tasInput({ odometer_manipulation: true, odometer_evidence: e, knockout_dismissals: dismissals }), { now });

  it("without a dismissal both knock out (unchanged rule)", () => {
    expect(lowSoh().knockout_flags).toEqual(["soh_below_60"]);
    expect(odo(clocked()).knockout_flags).toEqual(["odometer_manipulation"]);
    expect(lowSoh().data_quality.dismissed_evidence).toEqual([]);
  });

  it("a dismissed alert whose span cites the reading sets the knockout aside and says so", () => {
    const r = lowSoh([dismissal("soh_below_60", t(3), t(4))]);
    expect(r.knockout_flags).toEqual([]);
    expect(r.tas_grade).not.toBe("F");
    expect(r.data_quality.knockout_evidence).toEqual([]);
    expect(r.data_quality.dismissed_evidence).toEqual([
      expect.objectContaining({ knockout: "soh_below_60", alert_id: "alt_1", reason: "Cluster replaced, invoice on file", dismissed_at: "2026-11-19T09:00:00.000Z" }),
    ]);
    expect(r.data_quality.dismissed_evidence[0]!.statement).toContain(
      `state of health below 60 % at ${t(4).toISOString()} was dismissed as a false alarm by a reviewer on 2026-11-19: Cluster replaced`,
    );
    const o = odo(clocked(), [dismissal("odometer_manipulation", t(3), t(3))]);
    expect(o.knockout_flags).toEqual([]);
    expect(o.data_quality.dismissed_evidence[0]!.statement).toContain(`odometer rollback at ${t(3).toISOString()} was dismissed`);
  });

  it("a dismissal of other readings, of the other knockout, or a second drop below the dismissed level does not", () => {
    expect(lowSoh([dismissal("soh_below_60", t(1), t(3))]).knockout_flags).toEqual(["soh_below_60"]);
    expect(lowSoh([dismissal("odometer_manipulation", t(3), t(4))]).knockout_flags).toEqual(["soh_below_60"]);
    expect(odo(clocked(), [dismissal("odometer_manipulation", t(4), t(6))]).knockout_flags).toEqual(["odometer_manipulation"]);
    // Latest reading 2 km below the dismissed first lower reading: a new drop.
    expect(odo(clocked(14_998), [dismissal("odometer_manipulation", t(3), t(3))]).knockout_flags).toEqual(["odometer_manipulation"]);
    // Within the 1 km tolerance: still the dismissed drop.
    expect(odo(clocked(14_999.5), [dismissal("odometer_manipulation", t(3), t(3))]).knockout_flags).toEqual([]);
  });
});

describe("EOL knockouts with dismissals", () => {
  const input = (over: Partial<EolInput>): EolInput => ({
    device_id: "ev-1",
    vehicle_health_score: 90,
    soh_pct: 95,
    soh_at: t(1),
    odometer_manipulation: false,
    powertrain: "BEV",
    ...over,
  });

  it("a dismissed SoH knockout no longer forces F, still caps at C, and the limitations say a reviewer dismissed it", () => {
    const r = buildEolSummary(input({ soh_pct: 55, soh_at: t(4), knockout_dismissals: [dismissal("soh_below_60", t(4), t(4))] }), { now });
    expect(r.condition_grade).toBe("C");
    expect(r.knockout_evidence).toEqual([]);
    expect(r.limitations.join(" ")).toContain("dismissed as a false alarm by a reviewer on 2026-11-19: Cluster replaced, invoice on file");
  });

  it("a dismissed rollback no longer forces F; an undismissed one does", () => {
    const dismissed = buildEolSummary(input({ odometer_manipulation: true, odometer_evidence: clocked(), knockout_dismissals: [dismissal("odometer_manipulation", t(3), t(3))] }), {
      now,
    });
    expect(dismissed.condition_grade).toBe("A");
    expect(dismissed.knockout_evidence).toEqual([]);
    expect(dismissed.limitations.join(" ")).toContain("Knockout odometer_manipulation set aside");
    expect(buildEolSummary(input({ odometer_manipulation: true, odometer_evidence: clocked() }), { now }).condition_grade).toBe("F");
  });
});
