import { type AlertEvidence, lifecycleTarget, raisedEvidence, resolvedTechnicalData, resolverOf, resolvesAlert, updatedEvidence } from "@/lib/alerts/alert-lifecycle";
import { runDetectors } from "@/lib/detectors";
import type { AlertDraft, DeviceContext } from "@/lib/detectors/types";
import { advanceDeviceContext, detectorContext, type DeviceMaster, mergeDeviceMaster } from "@/lib/ingest/device-context";
import { drivingEventKey, type DrivingEventRow, observeDrivingEvents } from "@/lib/ingest/driving-events";
import { adaptFeedDocuments } from "@/lib/ingest/adapters/adapt-feed";
import { groupByDevice, masterUpdateFor, toTelemetryRecords } from "@/lib/ingest/normalize-records";
import type { FeedFormat } from "@/lib/vocabulary/feeds";
import { alertCreatedAt, type TelemetryRow, toTelemetryRow } from "@/lib/ingest/store-batch";
import { HOUR_MS } from "./calendar";
import type { OemRecord } from "./simulate-vehicle";

/**
 * Replays one simulated vehicle's feed through the ingest's own code paths, the way a telematics
 * platform delivers it: the records of each UTC hour arrive as one batch shortly after the hour's
 * last record. Per batch, exactly as `ingestTelemetry` does it: SPEC 2.17 records → TelemetryRecords
 * (toTelemetryRecords, groupByDevice), driving events (observeDrivingEvents), the master-data
 * update (masterUpdateFor) merged with the stored master data, the detectors (runDetectors) with the
 * device context carried from batch to batch, then the alert lifecycle (lib/alerts/alert-lifecycle.ts):
 * a draft no more severe than the problem's open alerts (not yet acknowledged when the batch arrives)
 * updates the most severe of them, a more severe one is raised alongside.
 *
 * No database: the context that ingest would read back from the database is carried with the JS
 * mirrors of lib/ingest/device-context.ts (tested against the SQL). Pure and deterministic given a
 * deterministic `acknowledge`.
 */

/** Records of one UTC hour travel as one batch. */
export const FEED_BATCH_MS = HOUR_MS;

export interface ReplayedAlert {
  /** The draft that raised it. */
  draft: AlertDraft;
  /** Its state after every later occurrence folded in (what the alert store holds). */
  evidence: AlertEvidence;
  createdAt: Date;
  /** When the simulated fleet manager acknowledged it (before the anchor), else null. */
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
}

/** The simulated fleet manager: decides, when an alert is created, whether and when it will be acknowledged. */
export type Acknowledge = (alert: { draft: AlertDraft; createdAt: Date }) => { at: Date; by: string } | null;

interface ReplayInput {
  tenantId: string;
  deviceId: string;
  /** The vehicle's feed, oldest first. */
  records: readonly OemRecord[];
  /** Master data stored before the first batch (the sandbox declares it up front). */
  master: DeviceMaster;
  /** Delay between a batch's last record and its arrival. */
  latencyMs: number;
  /** Nothing arrives after the anchor (the sandbox's "now"). */
  anchorMs: number;
  acknowledge: Acknowledge;
  /**
   * A feed vehicle's source (VehiclePlan.feed): each batch is sent as that source's documents and read by
   * its adapter (`adaptFeedDocuments`, as `POST /oem/ingest/{format}` reads them); else as SPEC 2.17 records.
   */
  feed?: { format: FeedFormat; document: (r: OemRecord) => unknown };
}

interface ReplayResult {
  telemetry: TelemetryRow[];
  /** Stored driving events, with the arrival time of the batch that carried them. */
  events: (DrivingEventRow & { receivedAt: Date })[];
  alerts: ReplayedAlert[];
  /** The device as the database would hold it after the last batch. */
  context: DeviceContext;
  master: DeviceMaster;
  eventsReportedAt: Date | null;
  denseSpeedAt: Date | null;
  batches: number;
}

/**
 * The device columns the ingest's upsert derives from a feed (merged master data, the confirmed
 * odometer maximum, event reporting and dense sampling), as the replay leaves them after its last
 * batch: what the sandbox seed writes, and what tests/db/ingest-mirrors.test.ts finds in the database.
 */
export function replayedDeviceState(replay: ReplayResult) {
  return {
    powertrain: replay.master.powertrain,
    powertrainSource: replay.master.powertrainSource,
    batteryKwh: replay.master.batteryKwh,
    masterDataAt: replay.master.masterDataAt,
    odometerMaxKm: replay.context.odometerMax?.km ?? null,
    odometerMaxAt: replay.context.odometerMax?.ts ?? null,
    eventsReportedAt: replay.eventsReportedAt,
    denseSpeedAt: replay.denseSpeedAt,
  };
}

/** A feed cut into the batches a telematics unit delivers: one per FEED_BATCH_MS of device time. */
export function* hourlyBatches(records: readonly OemRecord[]): Generator<OemRecord[]> {
  let batch: OemRecord[] = [];
  let bucket = Number.NaN;
  for (const r of records) {
    const b = Math.floor(Date.parse(r.timestamp ?? "") / FEED_BATCH_MS);
    if (b !== bucket && batch.length > 0) {
      yield batch;
      batch = [];
    }
    bucket = b;
    batch.push(r);
  }
  if (batch.length > 0) yield batch;
}

const later = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : b > a ? b : a);

/** A batch as the feed's source sends it, through its adapter; a refusal is a bug in the emitter (lib/seed/feed-documents.ts). */
function adaptedBatch(feed: NonNullable<ReplayInput["feed"]>, batch: readonly OemRecord[], receivedAt: Date) {
  const adapted = adaptFeedDocuments(feed.format, batch.map(feed.document), receivedAt);
  if (!adapted.ok) throw new Error(`the ${feed.format} adapter refused the simulated documents: ${JSON.stringify(adapted.issues.slice(0, 3))}`);
  return adapted.body;
}

export function replayFeed(input: ReplayInput): ReplayResult {
  const { tenantId, deviceId } = input;
  let master = input.master;
  let context: DeviceContext = { deviceId, powertrain: master.powertrain, batteryKwh: master.batteryKwh, previous: null, odometerMax: null };
  const telemetry: TelemetryRow[] = [];
  const events: (DrivingEventRow & { receivedAt: Date })[] = [];
  const eventKeys = new Set<string>();
  const alerts: ReplayedAlert[] = [];
  /** The alerts of each dedupe key (a problem of this device), oldest first. */
  const byKey = new Map<string, ReplayedAlert[]>();
  let eventsReportedAt: Date | null = null;
  let denseSpeedAt: Date | null = null;
  let batches = 0;

  for (const batch of hourlyBatches(input.records)) {
    const lastTs = Date.parse(batch[batch.length - 1]?.timestamp ?? "");
    const receivedAt = new Date(Math.min(lastTs + input.latencyMs, input.anchorMs));
    const body = input.feed ? adaptedBatch(input.feed, batch, receivedAt) : { vehicles: batch };
    const records = groupByDevice(toTelemetryRecords(body, receivedAt)).get(deviceId) ?? [];
    if (records.length === 0) continue;
    batches++;

    const observed = observeDrivingEvents(deviceId, records, context.previous);
    const update = {
      ...masterUpdateFor(deviceId, records, context.previous, context.odometerMax),
      eventsReportedAt: observed.eventsReportedAt,
      denseSpeedAt: observed.denseSpeedAt,
    };
    master = mergeDeviceMaster(master, update);
    eventsReportedAt = later(eventsReportedAt, observed.eventsReportedAt);
    denseSpeedAt = later(denseSpeedAt, observed.denseSpeedAt);

    for (const r of records) telemetry.push(toTelemetryRow(tenantId, r, receivedAt));
    for (const e of observed.events) {
      // The table's primary key: a second event of the same device, time, kind and source is not stored.
      const key = drivingEventKey(e);
      if (!eventKeys.has(key)) {
        eventKeys.add(key);
        events.push({ ...e, receivedAt });
      }
    }

    const judged = detectorContext(deviceId, context, master);
    const drafts = runDetectors({ devices: [judged], recordsByDevice: new Map([[deviceId, records]]) });
    // Alerts the batch contradicts are resolved first (insertAlerts' twin resolveAlerts runs before it).
    for (const r of drafts.flatMap((d) => (d.resolves ? [{ r: d.resolves, by: resolverOf(d.agent) }] : []))) {
      for (const a of byKey.get(r.r.dedupeKey) ?? []) {
        const open = a.acknowledgedAt === null || a.acknowledgedAt > receivedAt;
        if (!open || !resolvesAlert({ dedupeKey: a.draft.dedupeKey, acknowledged: false, lastSeenAt: a.evidence.lastSeenAt, technicalData: a.evidence.technicalData }, r.r))
          continue;
        a.acknowledgedAt = receivedAt;
        a.acknowledgedBy = r.by;
        a.evidence = { ...a.evidence, technicalData: resolvedTechnicalData(a.evidence.technicalData, r.r, receivedAt, r.by) };
      }
    }
    for (const draft of drafts) {
      // Every record of a replayed batch is new, so every draft is an occurrence.
      const problem = byKey.get(draft.dedupeKey) ?? [];
      const open = problem.filter((a) => a.acknowledgedAt === null || a.acknowledgedAt > receivedAt);
      const target = lifecycleTarget(
        open.map((a) => a.evidence),
        draft,
      );
      const updated = target === null ? undefined : open[target];
      if (updated) {
        updated.evidence = updatedEvidence(updated.evidence, draft);
        continue;
      }
      const createdAt = alertCreatedAt(draft.observedAt, receivedAt);
      const ack = input.acknowledge({ draft, createdAt });
      const alert: ReplayedAlert = { draft, evidence: raisedEvidence(draft), createdAt, acknowledgedAt: ack?.at ?? null, acknowledgedBy: ack?.by ?? null };
      alerts.push(alert);
      problem.push(alert);
      byKey.set(draft.dedupeKey, problem);
    }
    context = advanceDeviceContext(context, update, records, master);
  }
  return { telemetry, events, alerts, context, master, eventsReportedAt, denseSpeedAt, batches };
}
