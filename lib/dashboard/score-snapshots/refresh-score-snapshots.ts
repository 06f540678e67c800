import { setImmediate as yieldToRequests } from "node:timers/promises";
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
import { buildBatterySnapshot } from "@/lib/scores/battery-snapshot";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { loadBatterySnapshotInputs } from "@/lib/scores/queries/load-battery-snapshot-inputs";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { loadVehicleHealthInputs } from "@/lib/scores/queries/load-vehicle-health-inputs";
import { computeTas } from "@/lib/scores/tas";
import { computeVehicleHealth } from "@/lib/scores/vehicle-health";
import { MAINTAINED_PERIOD_DAYS, SNAPSHOT_CHUNK_DEVICES, SNAPSHOT_KINDS, type SnapshotKind } from "./snapshot-kinds";

type Row = typeof scoreSnapshots.$inferInsert;

interface RefreshResult {
  devices: number;
  rows: number;
  /** Answers that failed their own schema or threw: not stored (the page computes them on request and logs why). */
  failed: number;
}

/**
 * Recomputes the tenant's maintained answers (SNAPSHOT_KINDS) as of `now`, with the functions the API's
 * endpoints use: the fleet risk and green fleet scores over MAINTAINED_PERIOD_DAYS, and, for every
 * device or for `deviceIds` only, its TAS, vehicle health, battery health and residual values
 * (rule-based, and the model's with the endpoint's default query), by chunks of SNAPSHOT_CHUNK_DEVICES
 * (five loads per chunk, a bounded number of round trips whatever its size). The computation yields to
 * the event loop between devices, so requests are served while a large tenant is refreshed.
 *
 * Each answer is checked against its endpoint's schema before it is stored. Afterwards every row of the
 * refreshed scope that this run did not write is deleted: an answer that failed (logged), a device the
 * tenant no longer holds. A page then computes that answer on request (and shows the error) instead of
 * an ever older one. A row is replaced only by a newer computation, and deleted only if older than this
 * run: two refreshes of one tenant that overlap (two app instances) leave the later one's answers.
 */
export async function refreshScoreSnapshots({
  db,
  log,
  tenantId,
  deviceIds,
  now = new Date(),
}: {
  db: Db;
  log: Logger;
  tenantId: string;
  /** Only these devices (and the two fleet scores); all the tenant's when absent. */
  deviceIds?: readonly string[];
  now?: Date;
}): Promise<RefreshResult> {
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

  const scope = deviceIds === undefined ? null : [...new Set(deviceIds)];
  const ids = (
    await rows<{ device_id: string }>(
      db,
      sql`select device_id from devices where tenant_id = ${tenantId}
          ${scope === null ? sql`` : sql`and device_id in (select jsonb_array_elements_text(${JSON.stringify(scope)}::jsonb))`}
          order by device_id`,
    )
  ).map((r) => r.device_id);
  for (let i = 0; i < ids.length; i += SNAPSHOT_CHUNK_DEVICES) {
    const chunk = ids.slice(i, i + SNAPSHOT_CHUNK_DEVICES);
    const tas = await loadTasInputs({ ctx, deviceIds: chunk, now });
    const health = await loadVehicleHealthInputs({ ctx, deviceIds: chunk, now });
    const battery = await loadBatterySnapshotInputs({ ctx, deviceIds: chunk });
    const residual = await loadResidualInputs({ ctx, deviceIds: chunk, now });
    const residualModel = await loadResidualModelInputs({ ctx, deviceIds: chunk });
    for (const [n, id] of chunk.entries()) {
      // The scores are synchronous functions: without a turn of the event loop now and then, a chunk of
      // 200 devices would hold every other request of this process until it is done.
      if (n % YIELD_EVERY_DEVICES === 0) await yieldToRequests();
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
    result.devices += chunk.length;
    result.rows += await write(db, pending.splice(0));
  }
  await db.execute(
    sql`delete from score_snapshots where tenant_id = ${tenantId} and computed_at < ${now.toISOString()}::timestamptz
        ${scope === null ? sql`` : sql`and (device_id = '' or device_id in (select jsonb_array_elements_text(${JSON.stringify(scope)}::jsonb)))`}`,
  );
  return result;
}

/** Devices computed between two turns of the event loop during a refresh. */
const YIELD_EVERY_DEVICES = 10;

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

/** What a background run covers: every device, or some. */
type Scope = "all" | Set<string>;
const merge = (a: Scope | undefined, b: Scope): Scope => (a === undefined ? b : a === "all" || b === "all" ? "all" : new Set([...a, ...b]));

type State = {
  running: Map<string, Promise<void>>;
  /** What data changes asked for while a run was going: run once more after it, for that scope. */
  again: Map<string, Scope>;
  /** Devices ingested since the tenant's last post-ingest refresh. */
  ingested: Map<string, Set<string>>;
};
const g = globalThis as typeof globalThis & { __fdpScoreSnapshotState?: State };
const state: State = (g.__fdpScoreSnapshotState ??= { running: new Map(), again: new Map(), ingested: new Map() });

/**
 * Refreshes the tenant's maintained answers outside the request, one run per tenant and process at a
 * time. When one is already running:
 *   - a "change" (an ingest, a dismissed or acknowledged alert) may have come after the running one read
 *     its inputs, and a page that found some devices' answers missing needs those devices: one more run
 *     follows the running one, for the union of the devices asked;
 *   - a page that found the answers old ("all") asks nothing more: the running one is the refresh it wants.
 * Failures are logged: pages then show the older answers with their time, or compute on request.
 * Returns the run, or null when none started.
 */
export function refreshScoreSnapshotsInBackground({
  db,
  log,
  tenantId,
  scope,
  reason,
}: {
  db: Db;
  log: Logger;
  tenantId: string;
  scope: Scope;
  reason: "change" | "page";
}): Promise<void> | null {
  if (state.running.has(tenantId)) {
    // A page that found answers old only wants a run, and one is going; a change, or a page that found some
    // devices' answers missing, needs those devices computed after what the running one read.
    if (reason === "change" || scope !== "all") state.again.set(tenantId, merge(state.again.get(tenantId), scope));
    return null;
  }
  const started = performance.now();
  const run = refreshScoreSnapshots({ db, log, tenantId, deviceIds: scope === "all" ? undefined : [...scope] })
    .then((r) => log.info({ devices: r.devices, rows: r.rows, failed: r.failed, ms: Math.round(performance.now() - started) }, "score snapshots refreshed"))
    .catch((err: unknown) => log.warn({ err }, "score snapshot refresh failed (the dashboard shows the older snapshot with its time, or computes)"))
    .finally(() => {
      state.running.delete(tenantId);
      const next = state.again.get(tenantId);
      state.again.delete(tenantId);
      if (next !== undefined) void refreshScoreSnapshotsInBackground({ db, log, tenantId, scope: next, reason: "change" });
    });
  state.running.set(tenantId, run);
  return run;
}

/** The ingest notes the devices it stored (in memory): the next post-ingest refresh recomputes those. */
export function noteIngestedDevices(tenantId: string, deviceIds: readonly string[]): void {
  const set = state.ingested.get(tenantId) ?? new Set<string>();
  for (const id of deviceIds) set.add(id);
  state.ingested.set(tenantId, set);
}

/**
 * After the ingest's rollup refresh (which follows every ingest, at most once per interval, the last
 * ingest of a burst included): recomputes the fleet scores and the devices ingested since the last call,
 * if the tenant's dashboard keeps any answers (a tenant that only uses the API never pays for them; its
 * first page view computes on request and starts the first refresh).
 */
export async function refreshScoreSnapshotsAfterIngest({ db, log, tenantId }: { db: Db; log: Logger; tenantId: string }): Promise<void> {
  const devices = state.ingested.get(tenantId);
  state.ingested.delete(tenantId);
  if (!devices || devices.size === 0) return;
  const kept = await rows<{ one: number }>(db, sql`select 1 as one from score_snapshots where tenant_id = ${tenantId} limit 1`);
  if (kept.length > 0) await refreshScoreSnapshotsInBackground({ db, log, tenantId, scope: devices, reason: "change" });
}

/** The `version` of a row a change has made wrong: never shown, and replaced only by a run that started after the change. */
const INVALIDATED = "invalidated";

/**
 * A change outside the ingest that the device's answers read (an alert dismissed or acknowledged: the
 * knockouts and the odometer evidence), in the caller's transaction: the device's rows are marked
 * invalid and stamped with the change's time, so no page shows an answer the change made wrong, and a
 * refresh that read the data before the change cannot put one back (a row is replaced only by a newer
 * computation). Returns whether the device had any; if so, `refreshDeviceAfterChange` recomputes them after the commit.
 */
export async function invalidateDeviceSnapshots(tx: Db, tenantId: string, deviceId: string): Promise<boolean> {
  const marked = await rows<{ one: number }>(
    tx,
    sql`update score_snapshots set version = ${INVALIDATED}, computed_at = greatest(computed_at, clock_timestamp())
        where tenant_id = ${tenantId} and device_id = ${deviceId} returning 1 as one`,
  );
  return marked.length > 0;
}

/** After the change's commit: recomputes the device's answers (only if it had any: a tenant whose dashboard keeps none gets none). */
export function refreshDeviceAfterChange({ db, log, tenantId, deviceId }: { db: Db; log: Logger; tenantId: string; deviceId: string }): void {
  void refreshScoreSnapshotsInBackground({ db, log, tenantId, scope: new Set([deviceId]), reason: "change" });
}

/** Waits for the tenant's running refresh and any it asked for (tests). */
export async function settleScoreSnapshotRefresh(tenantId: string): Promise<void> {
  for (let run = state.running.get(tenantId); run; run = state.running.get(tenantId)) await run;
}
