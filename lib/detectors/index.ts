import { detectBattery } from "./battery";
import { detectCharging } from "./charging";
import { SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { sortedByTs, worseOf } from "./common";
import { detectDiagnostics } from "./diagnostics";
import { detectDriving } from "./driving";
import { detectOdometerIntegrity } from "./odometer-integrity";
import type { AlertDraft, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * The alert detectors ("agents") run on every ingested batch. Methodology: docs/methodology/alerts.md.
 */

export { DETECTOR_VERSION } from "./common";

export const DETECTORS: readonly Detector[] = Object.freeze([detectBattery, detectDiagnostics, detectDriving, detectOdometerIntegrity, detectCharging]);

/** What FDP assumes about a device that has records in the batch but no context (a new device). */
function blankContext(deviceId: string): DeviceContext {
  return { deviceId, powertrain: null, batteryKwh: null, previous: null, odometerMax: null };
}

/** `a` should replace `b`: more severe, or as severe and observed later. */
function outranks(a: AlertDraft, b: AlertDraft): boolean {
  const d = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
  return d > 0 || (d === 0 && a.observedAt.getTime() > b.observedAt.getTime());
}

/**
 * `survivor` carrying the evidence of `other`, an occurrence of the same problem in the same batch: the
 * earliest observation and the worst value, as the alert lifecycle folds an occurrence into an open
 * alert (lib/alerts/alert-lifecycle.ts).
 */
function fold(survivor: AlertDraft, other: AlertDraft): AlertDraft {
  const first = other.firstObservedAt < survivor.firstObservedAt ? other.firstObservedAt : survivor.firstObservedAt;
  const m = survivor.measure;
  const o = other.measure;
  const measure = m && o && o.field === m.field && o.worse === m.worse ? { ...m, worst: worseOf(m.worst, o.worst, m.worse) } : m;
  return { ...survivor, firstObservedAt: new Date(first.getTime()), measure };
}

/**
 * At most one draft per (device, dedupe key), consistent with the stored lifecycle: a batch is one
 * occurrence of a problem. The survivor is the most severe draft, ties going to the latest
 * `observedAt`, then to the first one seen (the lifecycle's "a more severe occurrence is raised, an
 * equal or later one is the latest evidence"); it carries the others' earliest observation and worst
 * value. The survivors keep the position of their key's first draft.
 */
export function dedupeDrafts(drafts: readonly AlertDraft[]): AlertDraft[] {
  const out: AlertDraft[] = [];
  const slot = new Map<string, number>();
  for (const draft of drafts) {
    const key = `${draft.deviceId}\u0000${draft.dedupeKey}`;
    const at = slot.get(key);
    const current = at === undefined ? undefined : out[at];
    if (at === undefined || !current) {
      slot.set(key, out.length);
      out.push(draft);
    } else {
      out[at] = outranks(draft, current) ? fold(draft, current) : fold(current, draft);
    }
  }
  return out;
}

/**
 * Runs every detector on each device's records of one batch (sorted by device time; the input is not
 * mutated) and returns the drafts de-duplicated by `dedupeDrafts`. Devices come in the order of
 * `devices`, then any device that has records but no context (judged with an empty context). Pure and
 * deterministic.
 */
export function runDetectors({ devices, recordsByDevice }: { devices: DeviceContext[]; recordsByDevice: Map<string, TelemetryRecord[]> }): AlertDraft[] {
  const contexts = new Map<string, DeviceContext>();
  for (const d of devices) if (!contexts.has(d.deviceId)) contexts.set(d.deviceId, d);
  for (const id of recordsByDevice.keys()) if (!contexts.has(id)) contexts.set(id, blankContext(id));

  const drafts: AlertDraft[] = [];
  for (const device of contexts.values()) {
    const records = sortedByTs(recordsByDevice.get(device.deviceId) ?? []);
    if (records.length === 0) continue;
    for (const detect of DETECTORS) drafts.push(...detect({ device, records }));
  }
  return dedupeDrafts(drafts);
}
