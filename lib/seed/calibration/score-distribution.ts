/**
 * Calibration: the distribution of every score FDP serves over one tenant's fleet, so a reviewer
 * sees whether the A–F bands and the 0–100 scales are used sensibly (issue 8, `npm run calibrate`).
 * Every number comes from the real score verbs, called as the API calls them.
 */
import { eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { devices } from "@/lib/db/schema";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { scoresBatch } from "@/lib/scores/score-batch";
import { tasBatch } from "@/lib/scores/tas-batch";
import { getTas } from "@/lib/scores/get-tas";
import { SCORE_NAMES, SCORES_BATCH_MAX, TAS_BATCH_MAX } from "@/lib/schemas/scores-device";

export interface Distribution {
  /** Devices with a value. */
  n: number;
  /** Devices without one (null: not applicable or not measured). */
  nulls: number;
  min: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  max: number | null;
}

export interface TenantCalibration {
  label: string;
  deviceCount: number;
  periodDays: number;
  /** Numeric scores per device: name → distribution. */
  distributions: Record<string, Distribution>;
  /** Graded scores per device: name → grade → count. */
  grades: Record<string, Record<string, number>>;
  /** Fleet-level scores (one number per tenant). */
  fleet: Record<string, number | null>;
  /** Devices a verb could not score: name → count (should stay 0). */
  errors: Record<string, number>;
}

/** The names every calibration reports (the calibrate test checks each is present). */
export const CALIBRATED_DISTRIBUTIONS = [
  "tas.tas_score",
  "tas.pillar.battery_health",
  "tas.pillar.usage_behaviour",
  "tas.pillar.contractual_market_risk",
  "tas.pillar.regulatory_compliance",
  "vehicle_health.vehicle_health_score",
  "eol_summary.vehicle_health_score",
  "battery_health.soh_pct",
  "battery_health.soc_current_pct",
  "battery_health.estimated_range_km",
  "fleet_risk.device.fleet_risk_score",
  "green_fleet.device.green_fleet_score",
] as const;
export const CALIBRATED_GRADES = ["tas.tas_grade", "tas.knockout_flags", "eol_summary.condition_grade", "vehicle_health.confidence", "tas.confidence"] as const;
export const CALIBRATED_FLEET_SCORES = ["fleet_risk.fleet_risk_score", "green_fleet.green_fleet_score"] as const;

/** Linear-interpolated quantile of sorted values (the R-7 / Excel PERCENTILE.INC definition). */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return Math.round((a + (b - a) * (pos - lo)) * 10) / 10;
}

export function distributionOf(values: readonly (number | null | undefined)[]): Distribution {
  const xs = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  return {
    n: xs.length,
    nulls: values.length - xs.length,
    min: quantile(xs, 0),
    p25: quantile(xs, 0.25),
    median: quantile(xs, 0.5),
    p75: quantile(xs, 0.75),
    max: quantile(xs, 1),
  };
}

function countOf(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of [...values].sort()) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Every score of every device of the tenant in `ctx`, as of `now`, summarised. */
export async function calibrateTenant({ ctx, label, now, periodDays = 30 }: { ctx: TenantCtx; label: string; now: Date; periodDays?: number }): Promise<TenantCalibration> {
  const ids = (await ctx.db.select({ id: devices.deviceId }).from(devices).where(eq(devices.tenantId, ctx.tenantId)).orderBy(devices.deviceId)).map((r) => r.id);
  const errors: Record<string, number> = { tas: 0, scores_batch: 0 };

  const tasItems = [];
  for (const part of chunks(ids, TAS_BATCH_MAX)) {
    const out = await tasBatch({ ctx, input: { device_ids: part }, now });
    errors.tas = (errors.tas ?? 0) + out.meta.errors;
    tasItems.push(...out.results);
  }
  // The batch answers grade and score only; pillars and knockouts come from the single-device verb.
  const tasFull = [];
  for (const id of ids) tasFull.push(await getTas({ ctx, input: { device_id: id }, now }));

  const items = [];
  for (const part of chunks(ids, SCORES_BATCH_MAX)) {
    const out = await scoresBatch({ ctx, input: { device_ids: part, scores: [...SCORE_NAMES] }, now });
    errors.scores_batch = (errors.scores_batch ?? 0) + out.meta.errors;
    items.push(...out.results);
  }

  const fleetRisk = await getFleetRisk({ ctx, input: { period: periodDays }, now });
  const greenFleet = await getGreenFleet({ ctx, input: { period: periodDays }, now });

  return {
    label,
    deviceCount: ids.length,
    periodDays,
    distributions: {
      "tas.tas_score": distributionOf(tasItems.map((t) => t.tas_score)),
      "tas.pillar.battery_health": distributionOf(tasFull.map((t) => t.pillars.battery_health.score)),
      "tas.pillar.usage_behaviour": distributionOf(tasFull.map((t) => t.pillars.usage_behaviour.score)),
      "tas.pillar.contractual_market_risk": distributionOf(tasFull.map((t) => t.pillars.contractual_market_risk.score)),
      "tas.pillar.regulatory_compliance": distributionOf(tasFull.map((t) => t.pillars.regulatory_compliance.score)),
      "vehicle_health.vehicle_health_score": distributionOf(items.map((i) => i.vehicle_health?.vehicle_health_score)),
      "eol_summary.vehicle_health_score": distributionOf(items.map((i) => i.eol_summary?.vehicle_health_score)),
      "battery_health.soh_pct": distributionOf(items.map((i) => i.battery_health?.data_quality.soh_pct)),
      "battery_health.soc_current_pct": distributionOf(items.map((i) => i.battery_health?.snapshot.soc_current_pct)),
      "battery_health.estimated_range_km": distributionOf(items.map((i) => i.battery_health?.snapshot.estimated_range_km)),
      "fleet_risk.device.fleet_risk_score": distributionOf(items.map((i) => i.fleet_risk?.fleet_risk_score)),
      "green_fleet.device.green_fleet_score": distributionOf(items.map((i) => i.green_fleet?.green_fleet_score)),
    },
    grades: {
      "tas.tas_grade": countOf(tasItems.map((t) => t.tas_grade ?? "error")),
      "tas.knockout_flags": countOf(tasFull.map((t) => (t.knockout_flags.length ? [...t.knockout_flags].sort().join("+") : "none"))),
      "eol_summary.condition_grade": countOf(items.map((i) => i.eol_summary?.condition_grade ?? "error")),
      "vehicle_health.confidence": countOf(items.map((i) => i.vehicle_health?.confidence ?? "error")),
      "tas.confidence": countOf(tasItems.map((t) => t.confidence ?? "error")),
    },
    fleet: {
      "fleet_risk.fleet_risk_score": fleetRisk.fleet_risk_score,
      "green_fleet.green_fleet_score": greenFleet.green_fleet_score,
      ...Object.fromEntries(Object.entries(fleetRisk.components).map(([k, v]) => [`fleet_risk.${k}`, v])),
      ...Object.fromEntries(Object.entries(greenFleet.components).map(([k, v]) => [`green_fleet.${k}`, v])),
    },
    errors,
  };
}

const cell = (x: number | null, w = 7) => (x === null ? "–" : String(x)).padStart(w);

/** A plain-text report of calibrations, one block per tenant (what `npm run calibrate` prints). */
export function formatCalibration(reports: readonly TenantCalibration[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`== ${r.label}: ${r.deviceCount} devices, fleet scores over ${r.periodDays} days`);
    lines.push(`${"score".padEnd(40)} ${"n".padStart(4)} ${"null".padStart(4)} ${"min".padStart(7)} ${"p25".padStart(7)} ${"median".padStart(7)} ${"p75".padStart(7)} ${"max".padStart(7)}`);
    for (const [name, d] of Object.entries(r.distributions)) {
      lines.push(`${name.padEnd(40)} ${String(d.n).padStart(4)} ${String(d.nulls).padStart(4)} ${cell(d.min)} ${cell(d.p25)} ${cell(d.median)} ${cell(d.p75)} ${cell(d.max)}`);
    }
    for (const [name, counts] of Object.entries(r.grades)) {
      lines.push(`${name.padEnd(40)} ${Object.entries(counts).map(([g, n]) => `${g}: ${n}`).join("  ")}`);
    }
    lines.push(`fleet level: ${Object.entries(r.fleet).map(([k, v]) => `${k} ${v ?? "–"}`).join(", ")}`);
    if (Object.values(r.errors).some((n) => n > 0)) lines.push(`ERRORS: ${JSON.stringify(r.errors)}`);
    lines.push("");
  }
  return lines.join("\n");
}
