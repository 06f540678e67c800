import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { numberArray, textArray } from "@/lib/db/pg-array";
import { rows, sqlNumber } from "@/lib/db/sql-values";
import { env } from "@/lib/env";
import type { Logger } from "@/lib/log/logger";
import { ROLLUP_INSERT_COLUMNS, rollupRowsSelect } from "@/lib/telemetry/queries/behaviour-rollup-sql";
import { utcDay } from "@/lib/telemetry/queries/rollup-window";

/**
 * Keeps the daily telemetry rollups (lib/db/schema/telemetry-rollups.ts) up to date. Nothing here is
 * needed for a right answer: the scores read a device's rollups only where they are valid and the raw
 * telemetry elsewhere (lib/telemetry/queries/behaviour-rollup-sql.ts). A refresh makes long windows fast again.
 *
 * What makes a device's rollups stale, and what an ingest does about it: the ingest lowers the
 * device's `clean_before` to the first UTC day it wrote, in the statement that stores the readings
 * (lib/ingest/store-batch.ts), so the two commit together; a new UTC day leaves yesterday unrolled; a
 * changed battery size invalidates all of them. A refresh recomputes each stale device from the last
 * rolled-up day before `clean_before` (that day's last pair may now reach a new reading), or, when a
 * position came at or after `clean_before`, from the last day with a position if that is earlier (its
 * last great-circle pair reaches the next position, which may be that new one), to yesterday.
 *
 * Concurrency: each chunk locks the state rows it refreshes (`for update … skip locked`), so an
 * ingest of the same device waits for the chunk (at most one chunk's time) and then lowers
 * `clean_before` again if it wrote older days; a device an ingest holds is skipped, not waited for.
 */

/** Devices per transaction: bounds the locks held and the time an ingest of one of them can wait. */
export const REFRESH_CHUNK_DEVICES = 200;

interface RefreshResult {
  devices: number;
  days: number;
  chunks: number;
}

/** Refreshes the stale rollups of one tenant (or of `deviceIds` only) up to the day before `today`. */
export async function refreshTelemetryRollups({
  db,
  tenantId,
  deviceIds,
  now = new Date(),
  maxChunks = Number.POSITIVE_INFINITY,
}: {
  db: Db;
  tenantId: string;
  deviceIds?: readonly string[];
  now?: Date;
  maxChunks?: number;
}): Promise<RefreshResult> {
  const today = utcDay(now);
  const result: RefreshResult = { devices: 0, days: 0, chunks: 0 };
  const only = deviceIds ? sql`and s.device_id = any(${textArray([...deviceIds])}::text[])` : sql``;
  // Devices an earlier chunk of this run skipped as locked are not retried by this run.
  let after = "";
  while (result.chunks < maxChunks) {
    const chunk = await db.transaction(async (tx) => {
      const stale = await rows(
        tx as unknown as Db,
        sql`select s.device_id, d.battery_kwh,
              case when s.rolled_battery_kwh is not distinct from d.battery_kwh then least(
                (select max(r.day) from telemetry_daily r where r.tenant_id = s.tenant_id and r.device_id = s.device_id and r.day < s.clean_before),
                -- The last day with a position, only if a position came at or after clean_before (every
                -- reading written since the last refresh is): else its last pair's partner is unchanged,
                -- and a device whose positions stopped long ago is not rebuilt from then at every refresh.
                case when exists (select 1 from telemetry t where t.tenant_id = s.tenant_id and t.device_id = s.device_id
                                    and t.ts >= s.clean_before::timestamp at time zone 'UTC' and t.lat is not null and t.lon is not null) then
                  (select max(r.day) from telemetry_daily r where r.tenant_id = s.tenant_id and r.device_id = s.device_id and r.day < s.clean_before and r.positions > 0)
                end)
              end::text as from_day
            from telemetry_rollup_state s
            join devices d on d.tenant_id = s.tenant_id and d.device_id = s.device_id
            where s.tenant_id = ${tenantId} and s.device_id > ${after} ${only}
              and (s.clean_before < ${today}::date or s.rolled_battery_kwh is distinct from d.battery_kwh)
            order by s.device_id
            limit ${REFRESH_CHUNK_DEVICES}
            for update of s skip locked`,
      );
      if (stale.length === 0) return null;
      const ids = stale.map((s) => String(s.device_id));
      const fromDays = stale.map((s) => (typeof s.from_day === "string" ? s.from_day : null));
      const x = sql`unnest(${textArray(ids)}::text[], ${textArray(fromDays)}::date[]) as x(device_id, from_day)`;
      await tx.execute(
        sql`delete from telemetry_daily r using ${x}
            where r.tenant_id = ${tenantId} and r.device_id = x.device_id and (x.from_day is null or r.day >= x.from_day)`,
      );
      const inserted = await rows(
        tx as unknown as Db,
        sql`with ins as (insert into telemetry_daily (${ROLLUP_INSERT_COLUMNS}) ${rollupRowsSelect({ tenantId, devices: x, today })} returning 1)
            select count(*)::int as n from ins`,
      );
      await tx.execute(
        sql`update telemetry_rollup_state s set clean_before = ${today}::date, rolled_battery_kwh = v.kwh, refreshed_at = now()
            from unnest(${textArray(ids)}::text[], ${numberArray(stale.map((s) => sqlNumber(s.battery_kwh)))}::float8[]) as v(device_id, kwh)
            where s.tenant_id = ${tenantId} and s.device_id = v.device_id`,
      );
      return { devices: ids.length, days: Number(inserted[0]?.n ?? 0), last: ids[ids.length - 1] ?? after };
    });
    if (!chunk) break;
    result.devices += chunk.devices;
    result.days += chunk.days;
    result.chunks += 1;
    after = chunk.last;
  }
  return result;
}

/**
 * Marks every device of the tenant as never rolled up (a refresh then rebuilds them all): for data
 * written without the ingest (the sandbox seed, the large bench tenant).
 */
export async function markTelemetryRollupsStale({ db, tenantId }: { db: Db; tenantId: string }): Promise<void> {
  await db.execute(sql`delete from telemetry_daily where tenant_id = ${tenantId}`);
  await db.execute(
    sql`insert into telemetry_rollup_state (tenant_id, device_id, clean_before)
        select tenant_id, device_id, '-infinity'::date from devices where tenant_id = ${tenantId}
        on conflict (tenant_id, device_id) do update set clean_before = '-infinity'::date`,
  );
}

type State = { running: Map<string, Promise<void>>; lastStartedAt: Map<string, number>; trailing: Map<string, ReturnType<typeof setTimeout>> };
const g = globalThis as typeof globalThis & { __fdpRollupState?: State };
const state: State = (g.__fdpRollupState ??= { running: new Map(), lastStartedAt: new Map(), trailing: new Map() });
state.trailing ??= new Map(); // a state made by an older module instance in the same process (hot reload)

/**
 * After an ingest: refreshes the tenant's stale rollups in the background, outside the request, one
 * run per tenant at a time and at most one per ROLLUP_REFRESH_INTERVAL_SECONDS (60). Returns the run, or null when none started.
 *
 * An ingest that comes too soon after a refresh (or while one runs) arms ONE trailing refresh for the
 * tenant, when the interval has passed: without it, the readings of a burst's last minute would stay
 * unrolled until the tenant's next ingest (hours, for a fleet that uploads once a day), and every score
 * would read them raw meanwhile. The answers do not depend on it (a stale device is read raw), only
 * their cost. The timer does not keep the process alive.
 */
export function refreshRollupsAfterIngest({
  db,
  log,
  tenantId,
  afterRun,
  now = Date.now(),
}: {
  db: Db;
  log: Logger;
  tenantId: string;
  /** Called when a run (this one, or the trailing one it arms) has ended, whatever its outcome: what reads the rollups next (the ingest refreshes the dashboard's maintained scores). */
  afterRun?: () => void;
  now?: number;
}): Promise<void> | null {
  // At most one run per tenant per interval (a stream of ingests costs one refresh a minute by default).
  const wait = (state.lastStartedAt.get(tenantId) ?? -Infinity) + env().ROLLUP_REFRESH_INTERVAL_SECONDS * 1000 - now;
  if (state.running.has(tenantId) || wait > 0) {
    if (!state.trailing.has(tenantId)) {
      // A refresh still running when the timer fires re-arms it (1 s later at the earliest).
      const timer = setTimeout(
        () => {
          state.trailing.delete(tenantId);
          void refreshRollupsAfterIngest({ db, log, tenantId, afterRun });
        },
        Math.max(wait, 1_000),
      );
      timer.unref?.();
      state.trailing.set(tenantId, timer);
    }
    return null;
  }
  const trailing = state.trailing.get(tenantId);
  if (trailing) clearTimeout(trailing); // this run covers what the trailing one would have
  state.trailing.delete(tenantId);
  state.lastStartedAt.set(tenantId, now);
  const started = performance.now();
  const run = refreshTelemetryRollups({ db, tenantId })
    .then((r) => {
      if (r.devices > 0) log.info({ devices: r.devices, days: r.days, ms: Math.round(performance.now() - started) }, "telemetry rollups refreshed");
    })
    .catch((err: unknown) => log.warn({ err }, "telemetry rollup refresh failed (scores read raw telemetry until the next one)"))
    .finally(() => {
      state.running.delete(tenantId);
      afterRun?.();
    });
  state.running.set(tenantId, run);
  return run;
}

/**
 * The tenant's background refresh work, for tests that drive refreshes themselves: waits for a running
 * refresh and cancels an armed trailing one. Returns whether there was any.
 */
export async function settleBackgroundRollupRefresh(tenantId: string): Promise<boolean> {
  const trailing = state.trailing.get(tenantId);
  if (trailing) clearTimeout(trailing);
  state.trailing.delete(tenantId);
  const running = state.running.get(tenantId);
  if (running) await running;
  return Boolean(trailing || running);
}

/** Whether a trailing refresh is armed for the tenant (tests). */
export const trailingRollupRefreshArmed = (tenantId: string): boolean => state.trailing.has(tenantId);
