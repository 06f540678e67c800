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
import { SCORE_NAMES, SCORES_BATCH_MAX, type ScoresBatchResponse, TAS_BATCH_MAX, type TasBatchResponse, type TasScore } from "@/lib/schemas/scores-device";

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
  /** One line per device: which vehicle got which grade (what a reviewer checks the stories against). */
  devices: DeviceScores[];
}

export interface DeviceScores {
  device_id: string;
  name: string | null;
  powertrain: string | null;
  tas_grade: string | null;
  tas_score: number | null;
  knockouts: string[];
  pillars: Record<string, number>;
  vehicle_health: number | null;
  eol_grade: string | null;
  soh_pct: number | null;
  fleet_risk: number | null;
  green_fleet: number | null;
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
  const master = await ctx.db
    .select({ id: devices.deviceId, name: devices.name, powertrain: devices.powertrain })
    .from(devices)
    .where(eq(devices.tenantId, ctx.tenantId))
    .orderBy(devices.deviceId);
  const ids = master.map((r) => r.id);
  const errors: Record<string, number> = { tas: 0, scores_batch: 0 };

  const tasItems: TasBatchResponse["results"] = [];
  for (const part of chunks(ids, TAS_BATCH_MAX)) {
    const out = await tasBatch({ ctx, input: { device_ids: part }, now });
    errors.tas = (errors.tas ?? 0) + out.meta.errors;
    tasItems.push(...out.results);
  }
  // The batch answers grade and score only; pillars and knockouts come from the single-device verb.
  const tasFull: TasScore[] = [];
  for (const id of ids) tasFull.push(await getTas({ ctx, input: { device_id: id }, now }));

  const items: ScoresBatchResponse["results"] = [];
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
    devices: master.map((m, i) => {
      const t = tasFull[i];
      const item = items[i];
      return {
        device_id: m.id,
        name: m.name,
        powertrain: m.powertrain,
        tas_grade: tasItems[i]?.tas_grade ?? null,
        tas_score: tasItems[i]?.tas_score ?? null,
        knockouts: t ? [...t.knockout_flags] : [],
        pillars: t ? Object.fromEntries(Object.entries(t.pillars).map(([k, v]) => [k, v.score])) : {},
        vehicle_health: item?.vehicle_health?.vehicle_health_score ?? null,
        eol_grade: item?.eol_summary?.condition_grade ?? null,
        soh_pct: item?.battery_health?.data_quality.soh_pct ?? null,
        fleet_risk: item?.fleet_risk?.fleet_risk_score ?? null,
        green_fleet: item?.green_fleet?.green_fleet_score ?? null,
      };
    }),
  };
}

/** The per-device lines of a calibration (`npm run calibrate -- --devices`). */
export function formatDevices(r: TenantCalibration): string {
  const abbrev: Record<string, string> = { battery_health: "bat", usage_behaviour: "use", contractual_market_risk: "con", regulatory_compliance: "reg" };
  const lines = [`-- ${r.label}: per device (TAS grade/score, pillars, knockouts, vehicle health, EOL, SoH, fleet risk, green fleet)`];
  for (const d of r.devices) {
    const pillars = Object.entries(d.pillars)
      .map(([k, v]) => `${abbrev[k] ?? k} ${v}`)
      .join(" ");
    lines.push(
      `${d.device_id.padEnd(16)} ${(d.name ?? "").slice(0, 24).padEnd(24)} ${(d.powertrain ?? "?").padEnd(4)} TAS ${d.tas_grade ?? "–"} ${cell(d.tas_score, 5)} [${pillars}]${d.knockouts.length ? ` KO ${d.knockouts.join("+")}` : ""} VH ${cell(d.vehicle_health, 5)} EOL ${d.eol_grade ?? "–"} SoH ${cell(d.soh_pct, 5)} risk ${cell(d.fleet_risk, 5)} green ${cell(d.green_fleet, 5)}`,
    );
  }
  return lines.join("\n");
}

const cell = (x: number | null, w = 7) => (x === null ? "–" : String(x)).padStart(w);

/** A plain-text report of calibrations, one block per tenant (what `npm run calibrate` prints). */
export function formatCalibration(reports: readonly TenantCalibration[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`== ${r.label}: ${r.deviceCount} devices, fleet scores over ${r.periodDays} days`);
    lines.push(
      `${"score".padEnd(40)} ${"n".padStart(4)} ${"null".padStart(4)} ${"min".padStart(7)} ${"p25".padStart(7)} ${"median".padStart(7)} ${"p75".padStart(7)} ${"max".padStart(7)}`,
    );
    for (const [name, d] of Object.entries(r.distributions)) {
      lines.push(`${name.padEnd(40)} ${String(d.n).padStart(4)} ${String(d.nulls).padStart(4)} ${cell(d.min)} ${cell(d.p25)} ${cell(d.median)} ${cell(d.p75)} ${cell(d.max)}`);
    }
    for (const [name, counts] of Object.entries(r.grades)) {
      lines.push(
        `${name.padEnd(40)} ${Object.entries(counts)
          .map(([g, n]) => `${g}: ${n}`)
          .join("  ")}`,
      );
    }
    lines.push(
      `fleet level: ${Object.entries(r.fleet)
        .map(([k, v]) => `${k} ${v ?? "–"}`)
        .join(", ")}`,
    );
    if (Object.values(r.errors).some((n) => n > 0)) lines.push(`ERRORS: ${JSON.stringify(r.errors)}`);
    lines.push("");
  }
  return lines.join("\n");
}
