import { isChargingStatus } from "@/lib/vocabulary/charging";
import { isMovingSpeed } from "@/lib/vocabulary/readings";
import type { FLEET_STATUSES } from "@/lib/schemas/fleet";
import { type AlertLevel, alertLevelOf, SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";

export type FleetStatus = (typeof FLEET_STATUSES)[number];
export type { AlertLevel };

/** CONTRACT: a vehicle with no telemetry for 24 h is offline. */
export const OFFLINE_AFTER_MS = 24 * 60 * 60 * 1000;

interface StateSignals {
  /** The state's device time, as a Date or epoch milliseconds (the fleet list reads it as a number: no Date per row). */
  ts: Date | number;
  speedKmh: number | null;
  ignition: number | null;
  chargingStatus: string | null;
  chargingPowerKw: number | null;
}

/**
 * Pure: the CONTRACT `status` of a vehicle's latest state at time `now`. `isCharging` is
 * isChargingStatus, or a memo of it (the fleet page classifies the same few status words 500 times).
 */
export function deriveStatus(s: StateSignals, now: Date, isCharging: (status: string | null) => boolean = isChargingStatus): FleetStatus {
  if (now.getTime() - (typeof s.ts === "number" ? s.ts : s.ts.getTime()) > OFFLINE_AFTER_MS) return "offline";
  const moving = isMovingSpeed(s.speedKmh);
  const charging = isCharging(s.chargingStatus) || (!moving && (s.chargingPowerKw ?? 0) > 0);
  if (charging && !moving) return "charging";
  if (moving) return "driving";
  return deriveIgnition(s) === 1 ? "idle" : "parked";
}

/** CONTRACT: ignition is always 0 or 1: the reported value, else 1 when the vehicle moves. */
export function deriveIgnition(s: Pick<StateSignals, "ignition" | "speedKmh">): 0 | 1 {
  if (s.ignition === 0 || s.ignition === 1) return s.ignition;
  return (s.speedKmh ?? 0) > 0 ? 1 : 0;
}

/** Maps the SQL rank (SEVERITY_RANK; 0 = no open alert) of the highest unacknowledged alert to the CONTRACT `alert_level`. */
export function alertLevelFromRank(rank: number | null): AlertLevel {
  return (rank === null ? undefined : LEVEL_BY_RANK.get(rank)) ?? alertLevelOf(null);
}

/** The first severity of each rank (as `SEVERITIES.find` would pick it), as its alert level: one lookup per row. */
const LEVEL_BY_RANK = new Map<number, AlertLevel>();
for (const s of SEVERITIES) if (!LEVEL_BY_RANK.has(SEVERITY_RANK[s])) LEVEL_BY_RANK.set(SEVERITY_RANK[s], alertLevelOf(s));

/** isChargingStatus remembered per status text, for one page of rows (a few distinct words). */
export function chargingStatusMemo(): (status: string | null) => boolean {
  const seen = new Map<string, boolean>();
  return (status) => {
    if (status === null) return isChargingStatus(status);
    let charging = seen.get(status);
    if (charging === undefined) {
      charging = isChargingStatus(status);
      seen.set(status, charging);
    }
    return charging;
  };
}
