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
 * The tenant's maintained answers of `kinds` for the listed devices (and the fleet's), in one round
 * trip. A row of another method version (or one a change has invalidated), or whose answer no longer
 * passes its endpoint's schema, is left out: the caller computes it. A background refresh starts when
 * something is missing (for those devices) or older than SCORE_SNAPSHOT_MAX_AGE_SECONDS (for all); the
 * rows found are still returned, each with its time.
 */
async function readSnapshots(ctx: TenantCtx, kinds: SnapshotKind[], deviceIds: readonly string[], now: Date): Promise<Found> {
  const deviceKinds = kinds.filter((k) => k !== "fleet_risk" && k !== "green_fleet");
  const fleetKinds = kinds.filter((k) => k === "fleet_risk" || k === "green_fleet");
  const where = [
    ...(fleetKinds.length > 0 ? [and(inArray(scoreSnapshots.kind, fleetKinds), eq(scoreSnapshots.deviceId, ""), eq(scoreSnapshots.periodDays, MAINTAINED_PERIOD_DAYS))] : []),
    ...(deviceKinds.length > 0 && deviceIds.length > 0 ? [and(inArray(scoreSnapshots.kind, deviceKinds), inArray(scoreSnapshots.deviceId, [...deviceIds]))] : []),
  ];
  const found =
    where.length === 0
      ? []
      : await ctx.db
          .select()
          .from(scoreSnapshots)
          .where(and(eq(scoreSnapshots.tenantId, ctx.tenantId), or(...where)));
  const out = Object.fromEntries(Object.keys(SNAPSHOT_KINDS).map((k) => [k, new Map()])) as Found;
  const maxAgeMs = env().SCORE_SNAPSHOT_MAX_AGE_SECONDS * 1000;
  let stale = false;
  for (const row of found) {
    const kind = row.kind as SnapshotKind;
    const spec = SNAPSHOT_KINDS[kind] as (typeof SNAPSHOT_KINDS)[SnapshotKind] | undefined;
    const parsed = spec && row.version === spec.version ? spec.schema.safeParse(row.answer) : undefined;
    if (!parsed?.success) continue;
    if (now.getTime() - row.computedAt.getTime() > maxAgeMs) stale = true;
    (out[kind] as Map<string, Maintained<unknown>>).set(row.deviceId, { answer: parsed.data, computedAt: row.computedAt });
  }
  const missingFleet = fleetKinds.some((k) => !out[k].has(""));
  const missingDevices = deviceIds.filter((id) => deviceKinds.some((k) => !out[k].has(id)));
  const refresh = { db: ctx.db, log: ctx.log, tenantId: ctx.tenantId, reason: "page" } as const;
  if (stale || missingFleet) void refreshScoreSnapshotsInBackground({ ...refresh, scope: "all" });
  else if (missingDevices.length > 0) void refreshScoreSnapshotsInBackground({ ...refresh, scope: new Set(missingDevices) });
  return out;
}

/** The fleet page's maintained answers: fleet risk and green fleet over MAINTAINED_PERIOD_DAYS, and the listed devices' TAS. */
export async function readFleetSnapshots({ ctx, deviceIds, now = new Date() }: { ctx: TenantCtx; deviceIds: readonly string[]; now?: Date }) {
  const found = await readSnapshots(ctx, ["fleet_risk", "green_fleet", "tas"], deviceIds, now);
  return { fleetRisk: found.fleet_risk.get("") ?? null, greenFleet: found.green_fleet.get("") ?? null, tas: found.tas };
}

/** One vehicle's maintained answers: TAS, vehicle health, battery health and both residual values (each null when not maintained). */
export async function readDeviceSnapshots({ ctx, deviceId, now = new Date() }: { ctx: TenantCtx; deviceId: string; now?: Date }) {
  const found = await readSnapshots(ctx, ["tas", "vehicle_health", "battery_health", "residual_value", "residual_model"], [deviceId], now);
  return {
    tas: found.tas.get(deviceId) ?? null,
    vehicleHealth: found.vehicle_health.get(deviceId) ?? null,
    battery: found.battery_health.get(deviceId) ?? null,
    residualValue: found.residual_value.get(deviceId) ?? null,
    residualModel: found.residual_model.get(deviceId) ?? null,
  };
}
