import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { scoreSnapshots } from "@/lib/db/schema";
import { rows } from "@/lib/db/sql-values";
import { residualValueOf } from "@/lib/leasing/get-residual-value";
import { loadResidualInputs } from "@/lib/leasing/queries/load-residual-inputs";
import { buildResidualPrediction } from "@/lib/leasing/predict-residual-value";
import { CURRENT_RESIDUAL_MODEL } from "@/lib/leasing/residual-model/current-model";
import { loadResidualModelInputs } from "@/lib/leasing/residual-model/load-residual-model-inputs";
import { residualModelQuerySchema } from "@/lib/schemas/leasing-residual-model";
import type { Logger } from "@/lib/log/logger";
import { buildBatterySnapshot } from "../battery-snapshot";
import { getFleetRisk } from "../get-fleet-risk";
import { getGreenFleet } from "../get-green-fleet";
import { loadBatterySnapshotInputs } from "../queries/load-battery-snapshot-inputs";
import { loadTasInputs } from "../queries/load-tas-inputs";
import { loadVehicleHealthInputs } from "../queries/load-vehicle-health-inputs";
import { computeTas } from "../tas";
import { computeVehicleHealth } from "../vehicle-health";
import { MAINTAINED_PERIOD_DAYS, SNAPSHOT_CHUNK_DEVICES, SNAPSHOT_KINDS, type SnapshotKind } from "./snapshot-kinds";

type Row = typeof scoreSnapshots.$inferInsert;

interface RefreshResult {
  devices: number;
  rows: number;
  /** Answers that failed their own schema or threw: not stored (the page computes them on request and logs why). */
  failed: number;
}

/**
 * Recomputes every maintained score of the tenant (SNAPSHOT_KINDS) as of `now`, with the functions the
 * API's endpoints use: the fleet risk and green fleet scores over MAINTAINED_PERIOD_DAYS, and each
 * device's TAS, vehicle health, battery health and residual values (rule-based, and the model's with
 * the endpoint's default query), by chunks of SNAPSHOT_CHUNK_DEVICES (five loads per chunk, a bounded
 * number of round trips whatever its size). Each answer is checked against its endpoint's schema before it is
 * stored; an answer that fails is logged and left out, so the page computes it (and shows the error)
 * instead of reading a wrong one. Rows of devices the tenant no longer holds are deleted.
 *
 * A row is replaced only by a newer computation: two refreshes of one tenant that overlap (two app
 * instances) leave the later one's answers.
 */
export async function refreshScoreSnapshots({ db, log, tenantId, now = new Date() }: { db: Db; log: Logger; tenantId: string; now?: Date }): Promise<RefreshResult> {
  const ctx = { db, tenantId, isSandbox: false, log };
  const result: RefreshResult = { devices: 0, rows: 0, failed: 0 };
  const pending: Row[] = [];
  const keep = async (kind: SnapshotKind, deviceId: string, periodDays: number, compute: () => unknown) => {
    try {
      const answer: unknown = SNAPSHOT_KINDS[kind].schema.parse(await compute());
      pending.push({ tenantId, kind, deviceId, periodDays, version: SNAPSHOT_KINDS[kind].version, answer, computedAt: now });
    } catch (err) {
      result.failed += 1;
      log.error({ err, kind, device_id: deviceId || undefined }, "score snapshot: an answer failed (the dashboard computes it on request)");
    }
  };

  const input = { period: MAINTAINED_PERIOD_DAYS };
  await keep("fleet_risk", "", MAINTAINED_PERIOD_DAYS, () => getFleetRisk({ ctx, input, now }));
  await keep("green_fleet", "", MAINTAINED_PERIOD_DAYS, () => getGreenFleet({ ctx, input, now }));
  result.rows += await write(db, pending.splice(0));

  const ids = (await rows<{ device_id: string }>(db, sql`select device_id from devices where tenant_id = ${tenantId} order by device_id`)).map((r) => r.device_id);
  for (let i = 0; i < ids.length; i += SNAPSHOT_CHUNK_DEVICES) {
    const deviceIds = ids.slice(i, i + SNAPSHOT_CHUNK_DEVICES);
    const tas = await loadTasInputs({ ctx, deviceIds, now });
    const health = await loadVehicleHealthInputs({ ctx, deviceIds, now });
    const battery = await loadBatterySnapshotInputs({ ctx, deviceIds });
    const residual = await loadResidualInputs({ ctx, deviceIds, now });
    const residualModel = await loadResidualModelInputs({ ctx, deviceIds });
    for (const id of deviceIds) {
      const t = tas.get(id);
      const h = health.get(id);
      const b = battery.get(id);
      const r = residual.get(id);
      const m = residualModel.get(id);
      if (t) await keep("tas", id, 0, () => computeTas(t, { now }));
      if (h) await keep("vehicle_health", id, 0, () => computeVehicleHealth(h.vehicleHealth, { now }));
      if (b) await keep("battery_health", id, 0, () => buildBatterySnapshot(b, { now }));
      if (r) await keep("residual_value", id, 0, () => residualValueOf(id, r, now));
      if (m)
        await keep("residual_model", id, 0, () =>
          buildResidualPrediction({ input: { device_id: id, ...residualModelQuerySchema.parse({}) }, device: m, model: CURRENT_RESIDUAL_MODEL, now }),
        );
    }
    result.devices += deviceIds.length;
    result.rows += await write(db, pending.splice(0));
  }
  await db.execute(
    sql`delete from score_snapshots s where s.tenant_id = ${tenantId} and s.device_id <> ''
        and not exists (select 1 from devices d where d.tenant_id = s.tenant_id and d.device_id = s.device_id)`,
  );
  return result;
}

/** Upserts one batch of rows (returns how many it sent); an existing row is replaced only by a newer computation. */
async function write(db: Db, batch: Row[]): Promise<number> {
  if (batch.length === 0) return 0;
  await db
    .insert(scoreSnapshots)
    .values(batch)
    .onConflictDoUpdate({
      target: [scoreSnapshots.tenantId, scoreSnapshots.kind, scoreSnapshots.deviceId, scoreSnapshots.periodDays],
      set: { version: sql`excluded.version`, answer: sql`excluded.answer`, computedAt: sql`excluded.computed_at` },
      setWhere: sql`${scoreSnapshots.computedAt} <= excluded.computed_at`,
    });
  return batch.length;
}

type State = { running: Map<string, Promise<void>>; again: Set<string> };
const g = globalThis as typeof globalThis & { __fdpScoreSnapshotState?: State };
const state: State = (g.__fdpScoreSnapshotState ??= { running: new Map(), again: new Set() });

/**
 * Refreshes the tenant's maintained scores outside the request: one run per tenant at a time; a call
 * while one runs asks for one more run after it (the data it was called for may have arrived after the
 * running one read its inputs). Failures are logged: pages then show the older snapshot with its time,
 * or compute on request. Returns the run, or null when one was already running.
 */
export function refreshScoreSnapshotsInBackground({ db, log, tenantId }: { db: Db; log: Logger; tenantId: string }): Promise<void> | null {
  if (state.running.has(tenantId)) {
    state.again.add(tenantId);
    return null;
  }
  const started = performance.now();
  const run = refreshScoreSnapshots({ db, log, tenantId })
    .then((r) => log.info({ devices: r.devices, rows: r.rows, failed: r.failed, ms: Math.round(performance.now() - started) }, "score snapshots refreshed"))
    .catch((err: unknown) => log.warn({ err }, "score snapshot refresh failed (the dashboard shows the older snapshot with its time, or computes)"))
    .finally(() => {
      state.running.delete(tenantId);
      if (state.again.delete(tenantId)) void refreshScoreSnapshotsInBackground({ db, log, tenantId });
    });
  state.running.set(tenantId, run);
  return run;
}

/**
 * After the ingest's rollup refresh: refreshes the tenant's maintained scores if its dashboard keeps
 * any (a tenant that only uses the API never pays for them; its first page view computes on request
 * and starts the first refresh).
 */
export async function refreshScoreSnapshotsAfterIngest({ db, log, tenantId }: { db: Db; log: Logger; tenantId: string }): Promise<void> {
  const kept = await rows<{ one: number }>(db, sql`select 1 as one from score_snapshots where tenant_id = ${tenantId} limit 1`);
  if (kept.length > 0) await refreshScoreSnapshotsInBackground({ db, log, tenantId });
}

/** Waits for the tenant's running refresh and any it asked for (tests). */
export async function settleScoreSnapshotRefresh(tenantId: string): Promise<void> {
  for (let run = state.running.get(tenantId); run; run = state.running.get(tenantId)) await run;
}
