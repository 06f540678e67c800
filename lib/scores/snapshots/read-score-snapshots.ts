import { and, eq, inArray, or } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { scoreSnapshots } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { refreshScoreSnapshotsInBackground } from "./refresh-score-snapshots";
import { MAINTAINED_PERIOD_DAYS, SNAPSHOT_KINDS, type SnapshotAnswer, type SnapshotKind } from "./snapshot-kinds";

/** A maintained answer and when it was computed (the page's "as of"). */
export interface Maintained<T> {
  answer: T;
  computedAt: Date;
}

type Found = { [K in SnapshotKind]: Map<string, Maintained<SnapshotAnswer<K>>> };

/**
 * The tenant's maintained answers of `kinds`, for every device or for one, in one round trip. A row
 * of another method version, or whose answer no longer passes its endpoint's schema, is left out (the
 * caller computes it). When a row is missing or older than SCORE_SNAPSHOT_MAX_AGE_SECONDS, a background
 * refresh starts; the rows found are still returned, each with its time.
 */
async function readSnapshots(ctx: TenantCtx, kinds: SnapshotKind[], deviceId: string | undefined, now: Date): Promise<Found> {
  const deviceKinds = kinds.filter((k) => k !== "fleet_risk" && k !== "green_fleet");
  const fleetKinds = kinds.filter((k) => k === "fleet_risk" || k === "green_fleet");
  const where = [
    ...(fleetKinds.length > 0 ? [and(inArray(scoreSnapshots.kind, fleetKinds), eq(scoreSnapshots.deviceId, ""), eq(scoreSnapshots.periodDays, MAINTAINED_PERIOD_DAYS))] : []),
    ...(deviceKinds.length > 0 ? [and(inArray(scoreSnapshots.kind, deviceKinds), deviceId === undefined ? undefined : eq(scoreSnapshots.deviceId, deviceId))] : []),
  ];
  const found = await ctx.db
    .select()
    .from(scoreSnapshots)
    .where(and(eq(scoreSnapshots.tenantId, ctx.tenantId), or(...where)));
  const out = Object.fromEntries(Object.keys(SNAPSHOT_KINDS).map((k) => [k, new Map()])) as Found;
  const maxAgeMs = env().SCORE_SNAPSHOT_MAX_AGE_SECONDS * 1000;
  let refresh = found.length === 0;
  for (const row of found) {
    const kind = row.kind as SnapshotKind;
    const spec = SNAPSHOT_KINDS[kind] as (typeof SNAPSHOT_KINDS)[SnapshotKind] | undefined;
    const parsed = spec && row.version === spec.version ? spec.schema.safeParse(row.answer) : undefined;
    if (!parsed?.success) {
      refresh = true;
      continue;
    }
    if (now.getTime() - row.computedAt.getTime() > maxAgeMs) refresh = true;
    (out[kind] as Map<string, Maintained<unknown>>).set(row.deviceId, { answer: parsed.data, computedAt: row.computedAt });
  }
  if (refresh || fleetKinds.some((k) => !out[k].has(""))) void refreshScoreSnapshotsInBackground({ db: ctx.db, log: ctx.log, tenantId: ctx.tenantId });
  return out;
}

/** The fleet page's maintained scores: fleet risk and green fleet over MAINTAINED_PERIOD_DAYS, and every device's TAS. */
export async function readFleetSnapshots({ ctx, now = new Date() }: { ctx: TenantCtx; now?: Date }) {
  const found = await readSnapshots(ctx, ["fleet_risk", "green_fleet", "tas"], undefined, now);
  return { fleetRisk: found.fleet_risk.get("") ?? null, greenFleet: found.green_fleet.get("") ?? null, tas: found.tas };
}

/** One vehicle's maintained answers: TAS, vehicle health, battery health and both residual values (each null when not maintained). */
export async function readDeviceSnapshots({ ctx, deviceId, now = new Date() }: { ctx: TenantCtx; deviceId: string; now?: Date }) {
  const found = await readSnapshots(ctx, ["tas", "vehicle_health", "battery_health", "residual_value", "residual_model"], deviceId, now);
  const refreshIfMissing = [found.tas, found.vehicle_health, found.battery_health, found.residual_value, found.residual_model].some((m) => !m.has(deviceId));
  if (refreshIfMissing) void refreshScoreSnapshotsInBackground({ db: ctx.db, log: ctx.log, tenantId: ctx.tenantId });
  return {
    tas: found.tas.get(deviceId) ?? null,
    vehicleHealth: found.vehicle_health.get(deviceId) ?? null,
    battery: found.battery_health.get(deviceId) ?? null,
    residualValue: found.residual_value.get(deviceId) ?? null,
    residualModel: found.residual_model.get(deviceId) ?? null,
  };
}
