import { isAwakeRecord } from "@/lib/detectors/common";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { SETTLE_MS } from "@/lib/vocabulary/readings";
import { isNewerMasterData, mergeMasterDataAt, mergeMasterValue } from "@/lib/vocabulary/master-data";
import { mergePowertrain, type Powertrain, type PowertrainSource } from "@/lib/vocabulary/powertrain";
import type { DeviceMasterUpdate } from "./normalize-records";

/**
 * The detectors' device context, batch after batch. The ingest reads it from the database
 * (readDeviceContexts) and judges the batch with the merged master data the device upsert returns; it
 * starts the detectors with `mergeDeviceMaster`'s prediction while the upsert runs, and runs them again
 * if the upsert returned other values (lib/ingest/ingest-telemetry.ts). The sandbox replay
 * (lib/seed/replay-feed.ts) has no database between batches and carries the context with the JS mirrors
 * below. tests/db/ingest-mirrors.test.ts checks on a real database that both agree: a mirror that drifted
 * from the SQL would make the ingest run its detectors twice on every batch, never judge with wrong values.
 */

/** The master data the detectors need, as the devices table holds it. */
export interface DeviceMaster {
  powertrain: Powertrain | null;
  powertrainSource: PowertrainSource | null;
  batteryKwh: number | null;
  masterDataAt: Date | null;
}

/** JS mirror of the device upsert's merge (lib/ingest/store-batch.ts) for these fields; `stored` null = a new device. */
export function mergeDeviceMaster(stored: DeviceMaster | null, update: DeviceMasterUpdate): DeviceMaster {
  const storedAt = stored?.masterDataAt ?? null;
  const powertrain = mergePowertrain(stored && { powertrain: stored.powertrain, source: stored.powertrainSource, masterDataAt: storedAt }, {
    powertrain: update.powertrain,
    source: update.powertrainSource,
    masterDataAt: update.masterDataAt,
  });
  return {
    powertrain: powertrain.powertrain,
    powertrainSource: powertrain.source,
    batteryKwh: mergeMasterValue(stored?.batteryKwh ?? null, update.batteryKwh, isNewerMasterData(update.masterDataAt, storedAt)),
    masterDataAt: mergeMasterDataAt(storedAt, update.masterDataAt),
  };
}

/**
 * The context a batch is judged with: the device's master data as merged with this batch's (the
 * same precedence as stored, so a declaration in this very batch counts) and its state before the batch.
 */
export function detectorContext(deviceId: string, before: DeviceContext | null | undefined, master: { powertrain: Powertrain | null; batteryKwh: number | null }): DeviceContext {
  return {
    deviceId,
    powertrain: master.powertrain,
    batteryKwh: master.batteryKwh,
    previous: before?.previous ?? null,
    odometerMax: before?.odometerMax ?? null,
    lastAwakeAt: before?.lastAwakeAt ?? null,
  };
}

/**
 * JS mirror of what readDeviceContexts returns once storeBatch has stored this batch (records of one
 * device sorted by time, one per timestamp): the snapshot only moves forward in device time, the
 * odometer maximum only up (the first reading that reached it keeps its time).
 */
export function advanceDeviceContext(
  context: DeviceContext,
  update: DeviceMasterUpdate,
  records: readonly TelemetryRecord[],
  master: { powertrain: Powertrain | null; batteryKwh: number | null },
): DeviceContext {
  const newest = records[records.length - 1];
  const moves = newest !== undefined && (context.previous === null || newest.ts.getTime() > context.previous.ts.getTime());
  const previous = moves
    ? {
        ts: newest.ts,
        odometerKm: newest.odometerKm,
        socPct: newest.socPct,
        sohPct: newest.sohPct,
        dtcCodes: newest.dtcCodes,
        speedKmh: newest.speedKmh,
      }
    : context.previous;
  // The latest awake reading of the history, kept while within SETTLE_MS of the newest stored reading
  // (readDeviceContexts' bound; the newest reading only moves forward, so one that falls out stays out).
  const awakeTimes = [context.lastAwakeAt?.getTime() ?? null, ...records.filter(isAwakeRecord).map((r) => r.ts.getTime())].filter((t): t is number => t !== null);
  const latestAwake = awakeTimes.length > 0 ? Math.max(...awakeTimes) : null;
  const newestMs = previous?.ts.getTime() ?? null;
  const lastAwakeAt = latestAwake !== null && newestMs !== null && latestAwake <= newestMs && latestAwake > newestMs - SETTLE_MS ? new Date(latestAwake) : null;
  const max = context.odometerMax;
  const raised = update.odometerMaxKm !== null && update.odometerMaxAt !== null && (max === null || update.odometerMaxKm > max.km);
  return {
    deviceId: context.deviceId,
    powertrain: master.powertrain,
    batteryKwh: master.batteryKwh,
    previous,
    odometerMax: raised ? { km: update.odometerMaxKm as number, ts: update.odometerMaxAt as Date } : max,
    lastAwakeAt,
  };
}
