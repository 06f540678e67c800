import type { AlertDraft, AlertResolution } from "@/lib/detectors/types";
import { SEVERITY_RANK, type Severity } from "@/lib/vocabulary/alerts";

/**
 * The alert lifecycle (docs/methodology/alerts.md#lifecycle): what an occurrence of a problem (an
 * alert draft) does to the problem's open alerts. The store applies it in one set-based statement
 * (insertAlerts, lib/ingest/store-batch.ts); these pure functions are the same rule in JS, used by the
 * sandbox replay (lib/seed/replay-feed.ts) and checked against the SQL (tests/db/ingest-mirrors.test.ts).
 *
 * - A problem is (device, dedupe key). Its open alerts are the unacknowledged ones; at most one per
 *   severity (the unique index alerts_open_dedupe_idx).
 * - An occurrence more severe than every open alert of its problem is RAISED as a new alert, alongside
 *   the open ones: its own id and created_at, so alert lists and the fleet `alert_level` show it, and a
 *   fleet manager who acknowledged nothing yet still gets the new, worse finding as news.
 * - Otherwise it UPDATES the problem's most severe open alert: one more occurrence, first/last seen,
 *   worst and latest value; the text and evidence are replaced only by a later occurrence of the same
 *   severity (so the sentence always matches the alert's severity).
 * - Only occurrences whose evidence reading is new to FDP count (a re-sent payload changes nothing).
 * - RESOLVED: an occurrence may show another problem's open alerts to be wrong (`draft.resolves`: a
 *   later odometer reading back at the level a drop fell from contradicts the rollback alert). Those
 *   alerts are closed before the batch's drafts are applied — acknowledged by `fdp:<agent>` at the
 *   batch's arrival, the reason and the contradicting evidence added to their `technical_data` under
 *   `resolution` — and kept, history and all; a later occurrence of the problem raises a new alert.
 */

/** The lifecycle state of a stored alert (columns of `alerts`). */
export interface AlertEvidence {
  severity: Severity;
  prediction: string;
  confidence: number;
  technicalData: Record<string, unknown>;
  occurrences: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  worstValue: number | null;
  latestValue: number | null;
}

/** The evidence of an alert raised from `draft`. */
export function raisedEvidence(draft: AlertDraft): AlertEvidence {
  return {
    severity: draft.severity,
    prediction: draft.prediction,
    confidence: draft.confidence,
    technicalData: draft.technicalData,
    occurrences: 1,
    firstSeenAt: draft.firstObservedAt,
    lastSeenAt: draft.observedAt,
    worstValue: draft.measure?.worst ?? null,
    latestValue: draft.measure?.value ?? null,
  };
}

/**
 * The index of the open alert `draft` updates (the problem's most severe open alert, when at least as
 * severe as the draft), or null: the draft is raised as a new alert. `open` holds the problem's
 * unacknowledged alerts.
 */
export function lifecycleTarget(open: readonly Pick<AlertEvidence, "severity">[], draft: Pick<AlertDraft, "severity">): number | null {
  let best: number | null = null;
  for (const [i, a] of open.entries()) {
    if (best === null || SEVERITY_RANK[a.severity] > SEVERITY_RANK[(open[best] as Pick<AlertEvidence, "severity">).severity]) best = i;
  }
  if (best === null) return null;
  return SEVERITY_RANK[(open[best] as Pick<AlertEvidence, "severity">).severity] >= SEVERITY_RANK[draft.severity] ? best : null;
}

/** `alert` after folding in `draft`, an occurrence of its problem no more severe than it. */
export function updatedEvidence(alert: AlertEvidence, draft: AlertDraft): AlertEvidence {
  // "Latest": at least as late as the latest occurrence so far (a late-arriving batch adds its count only).
  const latest = draft.observedAt.getTime() >= alert.lastSeenAt.getTime();
  const sameSeverity = latest && draft.severity === alert.severity;
  const m = draft.measure;
  const worse = m?.worse ?? "higher";
  const worst = m === null ? alert.worstValue : alert.worstValue === null ? m.worst : worse === "lower" ? Math.min(alert.worstValue, m.worst) : Math.max(alert.worstValue, m.worst);
  return {
    severity: alert.severity,
    prediction: sameSeverity ? draft.prediction : alert.prediction,
    confidence: sameSeverity ? draft.confidence : alert.confidence,
    technicalData: sameSeverity ? draft.technicalData : alert.technicalData,
    occurrences: alert.occurrences + 1,
    firstSeenAt: draft.firstObservedAt < alert.firstSeenAt ? draft.firstObservedAt : alert.firstSeenAt,
    lastSeenAt: latest ? draft.observedAt : alert.lastSeenAt,
    worstValue: worst,
    latestValue: latest && m !== null ? m.value : alert.latestValue,
  };
}

/**
 * The lifecycle keys the alert answer adds to `technical_data` (SPEC 2.2 leaves its content open).
 * Named so that no detector's own evidence key is overwritten (diagnostics has `first_seen_at` for the
 * batch).
 */
export function lifecycleTechnicalData(a: {
  occurrences: number;
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
  worstValue: number | null;
  latestValue: number | null;
  createdAt: Date;
}): Record<string, unknown> {
  return {
    occurrences: a.occurrences,
    first_occurrence_at: (a.firstSeenAt ?? a.createdAt).toISOString(),
    last_occurrence_at: (a.lastSeenAt ?? a.createdAt).toISOString(),
    worst_value: a.worstValue,
    latest_value: a.latestValue,
  };
}

/** Who resolves an alert a detector's later evidence contradicts: FDP's detector, not a person. */
export function resolverOf(agent: string): string {
  return `fdp:${agent}`;
}

/** `a` is one of the open alerts `r` resolves (lib/ingest/store-batch.ts `resolveAlerts` is the SQL twin). */
export function resolvesAlert(a: { dedupeKey: string | null; acknowledged: boolean; lastSeenAt: Date; technicalData: Record<string, unknown> }, r: AlertResolution): boolean {
  const level = a.technicalData[r.levelAtMost.field];
  return (
    a.dedupeKey === r.dedupeKey &&
    !a.acknowledged &&
    a.lastSeenAt.getTime() < r.evidenceBefore.getTime() &&
    typeof level === "number" &&
    level <= r.levelAtMost.value + RESOLUTION_LEVEL_EPSILON
  );
}

/** Float noise allowed when a level is compared with the contradicting reading (kilometres to 6 decimals). */
export const RESOLUTION_LEVEL_EPSILON = 1e-6;

/** The evidence of a resolved alert: unchanged, plus `resolution` (who, when, why, what contradicted it). */
export function resolvedTechnicalData(technicalData: Record<string, unknown>, r: AlertResolution, resolvedAt: Date, resolvedBy: string): Record<string, unknown> {
  return { ...technicalData, resolution: resolutionRecord(r, resolvedAt, resolvedBy) };
}

export function resolutionRecord(r: AlertResolution, resolvedAt: Date, resolvedBy: string): Record<string, unknown> {
  return { resolved_by: resolvedBy, resolved_at: resolvedAt.toISOString(), reason: r.reason, ...r.evidence };
}
