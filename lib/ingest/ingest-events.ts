import type { EventDraft } from "@/lib/events/emit-events";
import type { AlertChange } from "@/lib/vocabulary/events";
import type { ChangedAlert, StoredDevice } from "./store-batch";

/**
 * The events one ingest batch emits (docs/webhooks.md "Events"), in the order they happened: the
 * devices it created, then the alerts its readings closed (`alert.updated`, change `resolved`), then
 * the alerts it raised (`alert.created`) or whose problem occurred again (`alert.updated`, change
 * `occurred_again`), then the open alerts a raised one escalates (`alert.updated`, change `escalated`).
 */
export function ingestEventDrafts(
  stored: ReadonlyMap<string, StoredDevice>,
  resolved: readonly ChangedAlert[],
  changed: readonly ChangedAlert[],
  escalated: readonly (ChangedAlert & { escalatedTo: string })[],
): EventDraft[] {
  const created: EventDraft[] = [...stored].filter(([, d]) => d.created).map(([deviceId]) => ({ type: "device.created", data: { device_id: deviceId } }));
  const alert = (a: ChangedAlert, change: AlertChange | null, extra: Record<string, string> = {}): EventDraft => ({
    type: change === null ? "alert.created" : "alert.updated",
    data: { device_id: a.deviceId, alert_id: a.id, agent: a.agent, severity: a.severity, ...(change ? { change } : {}), ...extra },
  });
  return [
    ...created,
    ...resolved.map((a) => alert(a, "resolved")),
    ...changed.map((a) => alert(a, a.raised ? null : "occurred_again")),
    ...escalated.map((a) => alert(a, "escalated", { escalated_to: a.escalatedTo })),
  ];
}
