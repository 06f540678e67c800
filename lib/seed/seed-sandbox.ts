import { eq, getTableColumns, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { Db } from "@/lib/db/client";
import { emitEvents, type EventDraft } from "@/lib/events/emit-events";
import { alerts, devices, drivingEvents, events, fleetSnapshot, scoreSnapshots, serviceMeta, telemetry, telemetryDaily, telemetryRollupState, tenants } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { refreshScoreSnapshots } from "@/lib/dashboard/score-snapshots/refresh-score-snapshots";
import { markTelemetryRollupsStale, refreshTelemetryRollups } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { HOUR_MS } from "./calendar";
import { generateSandboxFleet } from "./generate-sandbox-fleet";

/** Bump when the generator changes, so that every database reseeds on its next start. */
export const SEED_VERSION = 4;
export const SANDBOX_SEED_META_KEY = "sandbox_seed";
/** Documented and public: the sandbox never stores ingested data, so its secret protects nothing. */
export const SANDBOX_INGEST_SECRET = "sandbox-ingest-secret-not-for-production";
const SANDBOX_TENANT_NAME = "FDP Sandbox";
const SANDBOX_ENTITLEMENTS = ["residual_factors"];

/** An anchor younger than this is kept: restarts are cheap, and the data never look more than 6 h stale. */
const RESEED_AFTER_MS = 6 * HOUR_MS;
/** Serialises concurrent seeds (several app instances starting against one database). */
const SEED_LOCK_KEY = 740_202_501;
/**
 * The statement timeout inside the seed's transaction. An instance that finds another seeding waits for
 * the lock as long as that seed takes (the fleet's generation and its inserts: 10–20 s on a 2-core
 * machine, more when loaded), and STATEMENT_TIMEOUT_MS (30 s, a bound sized for requests) would fail
 * its start-up. A bound for a hung seed, not a request's.
 */
const SEED_STATEMENT_TIMEOUT_MS = 600_000;
/** Telemetry rows per statement: they travel as one JSON parameter, so the 65,535-parameter limit does not bind. */
const TELEMETRY_CHUNK_ROWS = 5000;
/** Rows per multi-row VALUES insert: 21 columns × 1000 rows stays well below 65,535 parameters. */
const VALUES_CHUNK_ROWS = 1000;

const seedMetaSchema = z.object({ version: z.number().int(), anchor: z.iso.datetime({ offset: true }) });
type SeedMeta = z.infer<typeof seedMetaSchema>;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

interface SeedResult {
  seeded: boolean;
  /** The anchor of the data now in the database (ISO 8601). */
  anchor: string;
}

/**
 * Whether the seed described by `meta` (as stored, or undefined when absent or unreadable) still serves a
 * seed at `anchor`: made by this generator (SEED_VERSION), less than RESEED_AFTER_MS older, and not `force`d.
 */
export function seedIsFresh(meta: SeedMeta | undefined, anchor: Date, force: boolean): meta is SeedMeta {
  return !force && meta !== undefined && meta.version === SEED_VERSION && anchor.getTime() - Date.parse(meta.anchor) < RESEED_AFTER_MS;
}

/**
 * Makes sure the sandbox tenant holds a fresh synthetic fleet. Cheap when it already does (one
 * read); otherwise replaces the tenant's devices, snapshots, telemetry, driving events and alerts in one
 * transaction with data anchored at `now` floored to the hour, so the sandbox always looks live.
 */
export async function seedSandbox({ db, now: given, force = false }: { db: Db; now?: Date; force?: boolean }): Promise<SeedResult> {
  const now = given ?? new Date();
  const anchor = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const isFresh = (meta: SeedMeta | undefined): meta is SeedMeta => seedIsFresh(meta, anchor, force);

  const before = await readSeedMeta(db);
  if (isFresh(before)) return { seeded: false, anchor: before.anchor };

  const result = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${SEED_STATEMENT_TIMEOUT_MS}`));
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(SEED_LOCK_KEY))})`);
    // Another instance may have seeded while this one waited for the lock.
    const current = await readSeedMeta(tx);
    if (isFresh(current)) return { seeded: false, anchor: current.anchor };
    // Generated under the lock (seconds of CPU): instances starting together wait for the one that seeds
    // instead of each generating a fleet that all but one would throw away. The transaction holds no
    // row lock until the deletes below, and the app serves no request before its seed (server.ts).
    const fleet = generateSandboxFleet({ anchor });

    const tenant = { name: SANDBOX_TENANT_NAME, entitlements: SANDBOX_ENTITLEMENTS, ingestSecret: SANDBOX_INGEST_SECRET, requireSignedIngest: false };
    await tx
      .insert(tenants)
      .values({ id: SANDBOX_TENANT_ID, ...tenant })
      .onConflictDoUpdate({ target: tenants.id, set: tenant });

    await tx.delete(telemetry).where(eq(telemetry.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(telemetryDaily).where(eq(telemetryDaily.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(telemetryRollupState).where(eq(telemetryRollupState.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(drivingEvents).where(eq(drivingEvents.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(fleetSnapshot).where(eq(fleetSnapshot.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(alerts).where(eq(alerts.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(scoreSnapshots).where(eq(scoreSnapshots.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(devices).where(eq(devices.tenantId, SANDBOX_TENANT_ID));
    await tx.delete(events).where(eq(events.tenantId, SANDBOX_TENANT_ID));

    for (const chunk of chunks(fleet.devices, VALUES_CHUNK_ROWS)) await tx.insert(devices).values(chunk);
    for (const chunk of chunks(fleet.snapshots, VALUES_CHUNK_ROWS)) await tx.insert(fleetSnapshot).values(chunk);
    for (const chunk of chunks(fleet.alerts, VALUES_CHUNK_ROWS)) await tx.insert(alerts).values(chunk);
    for (const chunk of chunks(fleet.telemetry, TELEMETRY_CHUNK_ROWS)) await insertViaJsonRecordset(tx, telemetry, chunk);
    for (const chunk of chunks(fleet.drivingEvents, TELEMETRY_CHUNK_ROWS)) await insertViaJsonRecordset(tx, drivingEvents, chunk);

    // Written without the ingest: the daily rollups are rebuilt below, by the code that keeps a customer's up to date.
    await markTelemetryRollupsStale({ db: tx, tenantId: SANDBOX_TENANT_ID });

    const meta: SeedMeta = { version: SEED_VERSION, anchor: anchor.toISOString() };
    await tx
      .insert(serviceMeta)
      .values({ key: SANDBOX_SEED_META_KEY, value: meta, updatedAt: now })
      .onConflictDoUpdate({ target: serviceMeta.key, set: { value: meta, updatedAt: now } });
    // Last (it takes the tenant's event lock): the changes feed a prospect reads with the sandbox key, as
    // a customer's first ingest would emit them: each vehicle's device.created, then each alert's alert.created.
    await emitEvents(tx, SANDBOX_TENANT_ID, sandboxEventDrafts(fleet));
    return { seeded: true, anchor: meta.anchor };
  });
  if (result.seeded) {
    await refreshTelemetryRollups({ db, tenantId: SANDBOX_TENANT_ID, now });
    // The dashboard's maintained scores, computed as after a customer's ingest, so a prospect's first view reads them.
    // Stamped after the commit (unless the caller fixed the time, as the test templates do): a refresh that read
    // the sandbox before it (another app instance) is older, so it can neither keep nor put back answers of the old data.
    await refreshScoreSnapshots({ db, log: rootLogger(), tenantId: SANDBOX_TENANT_ID, now: given ?? new Date() });
  }
  return result;
}

/** Row counts of the sandbox tenant (for the seed script and its tests). */
export async function countSandboxRows(db: Db): Promise<{ devices: number; snapshots: number; telemetry: number; drivingEvents: number; alerts: number }> {
  return {
    devices: await db.$count(devices, eq(devices.tenantId, SANDBOX_TENANT_ID)),
    snapshots: await db.$count(fleetSnapshot, eq(fleetSnapshot.tenantId, SANDBOX_TENANT_ID)),
    telemetry: await db.$count(telemetry, eq(telemetry.tenantId, SANDBOX_TENANT_ID)),
    drivingEvents: await db.$count(drivingEvents, eq(drivingEvents.tenantId, SANDBOX_TENANT_ID)),
    alerts: await db.$count(alerts, eq(alerts.tenantId, SANDBOX_TENANT_ID)),
  };
}

async function readSeedMeta(db: Db | Tx): Promise<SeedMeta | undefined> {
  const [row] = await db.select({ value: serviceMeta.value }).from(serviceMeta).where(eq(serviceMeta.key, SANDBOX_SEED_META_KEY));
  const parsed = seedMetaSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : undefined; // absent or from an unknown format: reseed
}

/** The sandbox's events: what an ingest of its fleet would have emitted (lib/ingest/ingest-events.ts). */
function sandboxEventDrafts(fleet: ReturnType<typeof generateSandboxFleet>): EventDraft[] {
  return [
    ...fleet.devices.map((d): EventDraft => ({ type: "device.created", data: { device_id: d.deviceId } })),
    ...[...fleet.alerts]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((a): EventDraft => ({ type: "alert.created", data: { device_id: a.deviceId, alert_id: a.id, agent: a.agent, severity: a.severity } })),
  ];
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * `insert into t (…all columns…) select … from jsonb_to_recordset($1)`: a whole chunk travels as
 * one JSON parameter and Postgres unpacks it with the table's own column types. Measured on 100k
 * telemetry rows, drizzle's multi-row VALUES needs ~11 s just to build the SQL and ~20 s in all on
 * PGlite (~18 s on Postgres); this path takes ~5 s on PGlite and ~3 s on Postgres.
 * Every column must be present in the rows: a missing key becomes NULL, not the column default.
 */
async function insertViaJsonRecordset<T extends PgTable>(tx: Tx, table: T, rows: T["$inferInsert"][]): Promise<void> {
  const columns = Object.entries(getTableColumns(table));
  const recordType = sql.raw(columns.map(([key, column]) => `"${key}" ${column.getSQLType()}`).join(", "));
  const selection = sql.raw(columns.map(([key]) => `r."${key}"`).join(", "));
  await tx.insert(table).select(sql`select ${selection} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${recordType})`);
}
