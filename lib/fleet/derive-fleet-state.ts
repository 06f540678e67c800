import { isChargingStatus } from "@/lib/vocabulary/charging";
import { isMovingSpeed } from "@/lib/vocabulary/readings";
import type { FLEET_STATUSES } from "@/lib/schemas/fleet";
import { type AlertLevel, alertLevelOf, SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";

export type FleetStatus = (typeof FLEET_STATUSES)[number];
export type { AlertLevel };

/** CONTRACT: a vehicle with no telemetry for 24 h is offline. */
export const OFFLINE_AFTER_MS = 24 * 60 * 60 * 1000;

export interface StateSignals {
  /** The state's device time, as a Date or epoch milliseconds (the fleet list reads it as a number: no Date per row). */
  ts: Date | number;
  speedKmh: number | null;
  ignition: number | null;
  chargingStatus: string | null;
  chargingPowerKw: number | null;
}

/** Pure: the CONTRACT `status` of a vehicle's latest state at time `now`. */
export function deriveStatus(s: StateSignals, now: Date): FleetStatus {
  if (now.getTime() - (typeof s.ts === "number" ? s.ts : s.ts.getTime()) > OFFLINE_AFTER_MS) return "offline";
  const moving = isMovingSpeed(s.speedKmh);
  const charging =
    isChargingStatus(s.chargingStatus) || (!moving && (s.chargingPowerKw ?? 0) > 0);
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
  return alertLevelOf(SEVERITIES.find((s) => SEVERITY_RANK[s] === rank) ?? null);
}
