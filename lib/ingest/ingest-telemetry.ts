import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { refreshRollupsAfterIngest } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { noteIngestedDevices, refreshScoreSnapshotsAfterIngest } from "@/lib/dashboard/score-snapshots/refresh-score-snapshots";
import { ensureTelemetryPartitionsSoon } from "@/lib/db/telemetry-partitions";
import { analyzeAfterBulkIngest } from "@/lib/db/analyze-after-bulk-ingest";
import { preparedRows } from "@/lib/db/prepared";
import { rows, sqlBool, sqlText } from "@/lib/db/sql-values";
import { runDetectors } from "@/lib/detectors";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { InvalidSignatureError, PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { INGEST_MAX_FUTURE_SKEW_MS, INGEST_MAX_VEHICLES, type IngestBody, type IngestResponse } from "@/lib/schemas/ingest";
import { isDrivingEventKind } from "@/lib/vocabulary/driving-events";
import { FEED_FORMATS, type FeedFormat } from "@/lib/vocabulary/feeds";
import { detectorContext, mergeDeviceMaster } from "./device-context";
import { type DrivingEventRow, observeDrivingEvents } from "./driving-events";
import { type DeviceMasterUpdate, groupByDevice, masterUpdateFor, toTelemetryRecords } from "./normalize-records";
import { emitEvents } from "@/lib/events/emit-events";
import type { FeedBody } from "./adapters/adapt-feed";
import { ingestEventDrafts } from "./ingest-events";
import { recordIngestedRecords } from "@/lib/metrics/metrics";
import { escalatedAlerts, insertAlerts, readDeviceContexts, recordColumns, resolveAlerts, storeBatch, type StoredDeviceMaster } from "./store-batch";
import { type SignedIngestRule, type TimestampedSignature, verifyIngestSignature } from "./verify-signature";

/**
 * A verified timestamped signature, handed from `verifyIngestRequest` to `ingestTelemetry` of the same
 * request (the operation's two halves get the same context object: lib/http/bind-route.ts, and ingest
 * never reads from the replica, so lib/db/replica.ts's runRouted passes it on unchanged). Its use is
 * recorded inside the ingest's own transaction, so a request that fails stores neither its records nor
 * its signature, and its retry with the same signature is still accepted.
 */
const verifiedSignatures = new WeakMap<object, TimestampedSignature>();

/**
 * Checks that come before validating the payload (CONTRACT "OEM ingest", "Feeds"): more than
 * INGEST_MAX_VEHICLES records is a 413 (whatever else is wrong with them), and every signature present
 * must verify against the raw bytes or the canonical body (401 `invalid_signature`), as must one for a
 * tenant that requires it.
 */
export async function verifyIngestRequest({
  ctx,
  rawBody,
  records,
  body,
  signatureHeader,
}: {
  ctx: TenantCtx;
  /** The request body exactly as received (the header signature is over these bytes). */
  rawBody: Uint8Array;
  /** How many records the body holds, and what they are called in a refusal: `vehicle records`, `documents`. */
  records: { count: number; noun: string };
  /** The body parsed, not yet validated, where a body-field signature (`hmac_signature`) may be (endpoint 16); `{}` where none may. */
  body: Record<string, unknown>;
  signatureHeader: string | null;
}): Promise<void> {
  if (records.count > INGEST_MAX_VEHICLES) {
    throw new PayloadTooLargeError(`At most ${INGEST_MAX_VEHICLES} ${records.noun} per request; this one has ${records.count}. Split it.`);
  }
  // A named prepared statement (lib/db/prepared.ts): one round trip instead of two, on every request.
  const [tenant] = await preparedRows<{ ingest_secret: unknown; require_signed_ingest: unknown; require_timestamped_signature: unknown }>(
    ctx.db,
    sql`select ingest_secret, require_signed_ingest, require_timestamped_signature from tenants where id = ${ctx.tenantId}`,
  );
  const secret = sqlText(tenant?.ingest_secret);
  if (!tenant || secret === null) throw new Error(`tenant ${ctx.tenantId} of an authenticated key is missing`);
  const rule: SignedIngestRule = sqlBool(tenant.require_signed_ingest) !== true ? "optional" : sqlBool(tenant.require_timestamped_signature) === true ? "timestamped" : "required";
  const { timestamped } = verifyIngestSignature({ secret, rule, rawBody, header: signatureHeader, body });
  if (timestamped) verifiedSignatures.set(ctx, timestamped);
}

/**
 * Records a timestamped signature's one use in the ingest's transaction; a second use within its window
 * is 401 `invalid_signature` (the transaction rolls back, nothing is stored). The same statement deletes
 * the tenant's expired rows, so the table holds at most the last 10 minutes of signed requests.
 */
async function useSignatureOnce(tx: IngestTx, tenantId: string, signed: TimestampedSignature): Promise<void> {
  const inserted = await rows(
    tx as unknown as Db,
    sql`with expired as (delete from ingest_signatures where tenant_id = ${tenantId} and expires_at < now())
        insert into ingest_signatures (tenant_id, signature, expires_at)
        values (${tenantId}, ${signed.signature}, ${signed.expiresAt.toISOString()}::timestamptz)
        on conflict do nothing
        returning 1 as used`,
  );
  if (inserted.length === 0) {
    throw new InvalidSignatureError("This X-FDP-Signature was already used: a signed request is accepted once. Sign each request (a new t) when you send it.");
  }
}

/** The ingest's transaction. */
export type IngestTx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * OEM telemetry ingest (SPEC 4.2, CONTRACT "OEM ingest") of a validated payload whose request passed
 * `verifyIngestRequest`: store it in one transaction (devices, history, snapshot, driving events,
 * alerts) and answer.
 * Nothing is stored unless everything is valid; the sandbox validates and stores nothing.
 * `alsoInTransaction` runs last in the same transaction: what a caller records of the ingest (the MQTT
 * bridge's message count) commits with it or not at all.
 */
export async function ingestTelemetry({
  ctx,
  input,
  now = new Date(),
  alsoInTransaction,
}: {
  ctx: TenantCtx;
  input: IngestBody | FeedBody;
  now?: Date;
  alsoInTransaction?: (tx: IngestTx) => Promise<void>;
}): Promise<IngestResponse> {
  const records = toTelemetryRecords(input, now);
  const future = firstFutureTime(records, now);
  if (future) {
    throw new ValidationError(`${future} is more than ${INGEST_MAX_FUTURE_SKEW_MS / 60000} minutes in the future.`, [{ field: future, message: "is in the future" }]);
  }
  const byDevice = groupByDevice(records);
  const response: IngestResponse = { accepted: true, device_count: byDevice.size, tenant_id: ctx.tenantId };
  if (ctx.isSandbox) return response; // CONTRACT: the sandbox answers a mock acceptance and stores nothing

  const deviceIds = [...byDevice.keys()];
  const unique = [...byDevice.values()].flat();
  let newDevices = 0;
  const signed = verifiedSignatures.get(ctx);
  verifiedSignatures.delete(ctx);
  await ctx.db.transaction(async (tx) => {
    if (signed) await useSignatureOnce(tx, ctx.tenantId, signed);
    // The records' columns are built while the context read is in flight (they depend on the records alone).
    const reading = readDeviceContexts(tx, ctx.tenantId, deviceIds);
    reading.catch(() => undefined); // awaited below; its failure must not surface as unhandled meanwhile
    await statementSent();
    const columns = recordColumns(unique);
    const known = await reading;
    newDevices = deviceIds.filter((id) => !known.has(id)).length;
    const { updates, events } = batchDeviceUpdates(byDevice, known);
    // Detectors judge the batch with the device's master data as the upsert merges it (the same
    // precedence as stored) and the state FDP held before this batch. They run while Postgres executes
    // the store statement, with the merge predicted by its JS mirror from the master data just read;
    // should the upsert return other values (a concurrent ingest changed the device in between), they
    // judge the batch again with what was stored.
    const predicted = new Map(updates.map((u) => [u.deviceId, mergeDeviceMaster(known.get(u.deviceId)?.master ?? null, u)]));
    const storing = storeBatch(tx, ctx.tenantId, { updates, records: unique, columns, events, receivedAt: now });
    storing.catch(() => undefined); // awaited below; its failure must not surface as unhandled meanwhile
    await statementSent();
    const judge = (master: (id: string) => StoredDeviceMaster | undefined) =>
      runDetectors({ devices: deviceIds.map((id) => detectorContext(id, known.get(id), master(id) ?? NO_MASTER)), recordsByDevice: byDevice });
    let drafts = judge((id) => predicted.get(id));
    const stored = await storing;
    if (deviceIds.some((id) => !sameMaster(predicted.get(id), stored.get(id)))) drafts = judge((id) => stored.get(id));
    // Alerts the batch contradicts are closed first, then the batch's occurrences are applied.
    const resolved = await resolveAlerts(tx, ctx.tenantId, drafts, now);
    const { changed } = await insertAlerts(tx, ctx.tenantId, drafts, now);
    const escalated = await escalatedAlerts(tx, ctx.tenantId, changed);
    // Last: the events of what this batch changed, committed with it (CONTRACT "Webhooks and the changes feed").
    await emitEvents(tx, ctx.tenantId, ingestEventDrafts(stored, resolved, changed, escalated));
    await alsoInTransaction?.(tx);
  });
  // Committed: the instance's count of stored records (GET /api/metrics), by the format they came in. A
  // SPEC body's `source` is the client's free text: only a feed format's name becomes a label.
  recordIngestedRecords(isFeedFormat(input.source) ? input.source : "spec", unique.length);
  // A bulk first ingest: fresh planner statistics in the background (lib/db/analyze-after-bulk-ingest.ts).
  void analyzeAfterBulkIngest({ db: ctx.db, log: ctx.log, newDevices });
  // Daily rollups for long score windows, brought up to date in the background (lib/telemetry/rollups/), then the
  // dashboard's maintained scores, which read them (lib/dashboard/score-snapshots/; only for a tenant whose dashboard keeps any).
  const { db, log, tenantId } = ctx;
  noteIngestedDevices(tenantId, deviceIds);
  const afterRun = () => void refreshScoreSnapshotsAfterIngest({ db, log, tenantId }).catch((err: unknown) => log.warn({ err }, "score snapshot refresh after ingest failed"));
  void refreshRollupsAfterIngest({ db, log, tenantId, afterRun });
  // Next months' telemetry partitions, checked at most hourly (lib/db/telemetry-partitions.ts).
  void ensureTelemetryPartitionsSoon({ db: ctx.db, log: ctx.log });
  return response;
}

const isFeedFormat = (source: string | undefined): source is FeedFormat => (FEED_FORMATS as readonly (string | undefined)[]).includes(source);

const NO_MASTER: StoredDeviceMaster = { powertrain: null, batteryKwh: null };

/** The two merges agree on what the detectors read. */
function sameMaster(a: StoredDeviceMaster | undefined, b: StoredDeviceMaster | undefined): boolean {
  return (a?.powertrain ?? null) === (b?.powertrain ?? null) && (a?.batteryKwh ?? null) === (b?.batteryKwh ?? null);
}

/**
 * Resolves once a statement started just before is, as a rule, on its way to Postgres: postgres.js
 * writes a query to the socket a few microtasks after it is awaited, so after this the app's CPU work
 * overlaps the database's instead of delaying the send. Not always: a message under 1 KiB waits for
 * postgres.js's own setImmediate (queued after this one; a tiny batch, little work to overlap), and a
 * statement not yet prepared on its connection sends Parse/Describe first and its Bind/Execute only once
 * the answer is read, after the client work (the first use of each statement text per pooled
 * connection). Either way only the overlap is lost, never the order or a result.
 */
const statementSent = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What one batch says about each device: the master-data update (with the event-reporting and
 * dense-sampling times) and the driving events to store, judged against what was known before it.
 */
export function batchDeviceUpdates(
  byDevice: ReadonlyMap<string, TelemetryRecord[]>,
  known: ReadonlyMap<string, DeviceContext>,
): { updates: DeviceMasterUpdate[]; events: DrivingEventRow[] } {
  const updates: DeviceMasterUpdate[] = [];
  const events: DrivingEventRow[] = [];
  for (const [id, list] of byDevice) {
    const observed = observeDrivingEvents(id, list, known.get(id)?.previous ?? null);
    updates.push({
      ...masterUpdateFor(id, list, known.get(id)?.previous ?? null, known.get(id)?.odometerMax ?? null),
      eventsReportedAt: observed.eventsReportedAt,
      denseSpeedAt: observed.denseSpeedAt,
    });
    events.push(...observed.events);
  }
  return { updates, events };
}

/**
 * The upper bound of every device time of the payload (a record's `timestamp`, a known event's `ts`):
 * the field path of the first one further ahead of `now` than device clocks drift, or null. The lower
 * bound is in the schema (lib/schemas/ingest.ts `deviceTime`).
 */
function firstFutureTime(records: readonly { ts: Date; rawData: Record<string, unknown> | null }[], now: Date): string | null {
  const limit = now.getTime() + INGEST_MAX_FUTURE_SKEW_MS;
  for (const [i, r] of records.entries()) {
    if (r.ts.getTime() > limit) return `vehicles.${i}.timestamp`;
    const events = r.rawData?.events;
    if (!Array.isArray(events)) continue;
    for (const [j, e] of (events as unknown[]).entries()) {
      const kind = (e as { kind?: unknown } | null)?.kind;
      const ts = (e as { ts?: unknown } | null)?.ts;
      // Only known kinds were validated (and are stored); unknown kinds are kept as sent.
      if (isDrivingEventKind(kind) && typeof ts === "string" && Date.parse(ts) > limit) return `vehicles.${i}.raw_data.events.${j}.ts`;
    }
  }
  return null;
}
