import { and, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { devices, fleetSnapshot } from "@/lib/db/schema";
import { listFleet } from "@/lib/fleet/list-fleet";
import { FLEET_LIMIT, type FleetRecord } from "@/lib/schemas/fleet";
import { normalisePowertrain, type Powertrain } from "@/lib/vocabulary/powertrain";

export interface FleetTableRow extends FleetRecord {
  powertrain: Powertrain | null;
  /** State of charge of the latest snapshot (%), null when the vehicle reports none (an ICE, or no signal). */
  soc_pct: number | null;
}

/** The dashboard's page size: the API's own maximum for GET /fleet. */
const FLEET_TABLE_LIMIT = FLEET_LIMIT.max;

/**
 * The dashboard's fleet table: the API's own fleet verb (listFleet, the rows of GET /api/v1/fleet)
 * joined with two columns the table shows beside it, powertrain and state of charge. Two round trips
 * whatever the fleet size.
 */
export async function listFleetTable({ ctx, now = new Date() }: { ctx: TenantCtx; now?: Date }): Promise<FleetTableRow[]> {
  const [fleet, extras] = await Promise.all([
    listFleet({ ctx, input: { limit: FLEET_TABLE_LIMIT }, now }),
    ctx.db
      .select({ deviceId: devices.deviceId, powertrain: devices.powertrain, socPct: fleetSnapshot.socPct })
      .from(devices)
      .leftJoin(fleetSnapshot, and(eq(fleetSnapshot.tenantId, devices.tenantId), eq(fleetSnapshot.deviceId, devices.deviceId)))
      .where(eq(devices.tenantId, ctx.tenantId)),
  ]);
  const byDevice = new Map(extras.map((e) => [e.deviceId, e]));
  return fleet.data.map((row) => {
    const extra = byDevice.get(row.device_id);
    return { ...row, powertrain: normalisePowertrain(extra?.powertrain), soc_pct: extra?.socPct ?? null };
  });
}

export const FLEET_SORT_KEYS = ["device", "name", "status", "alert", "powertrain", "soc", "tas"] as const;
export type FleetSortKey = (typeof FLEET_SORT_KEYS)[number];

export interface FleetTableView {
  sort: FleetSortKey;
  dir: "asc" | "desc";
  status?: string;
  alert?: string;
  powertrain?: string;
}

/** Worst first when sorting by alert level descending; grades A best … F worst (E between D and F). */
const ALERT_RANK: Record<string, number> = { none: 0, info: 1, warning: 2, critical: 3 };
const TAS_RANK: Record<string, number> = { A: 0, B: 1, C: 2, D: 3, E: 4, F: 5 };

/**
 * The table's filters and order, from the page's query string (unknown values are ignored). Pure:
 * rows in, rows out. Unknown values (a vehicle without SOC or TAS grade) sort last in either direction,
 * so "highest SOC first" never starts with vehicles that report none.
 */
export function viewFleetTable<T extends FleetTableRow & { tas_grade: string | null }>(rows: readonly T[], view: FleetTableView): T[] {
  const kept = rows.filter(
    (r) =>
      (!view.status || r.status === view.status) &&
      (!view.alert || r.alert_level === view.alert) &&
      (!view.powertrain || (view.powertrain === "unknown" ? r.powertrain === null : r.powertrain === view.powertrain)),
  );
  const key = (r: T): string | number | null => {
    switch (view.sort) {
      case "device":
        return r.device_id;
      case "name":
        return r.device_name.toLowerCase();
      case "status":
        return r.status;
      case "alert":
        return ALERT_RANK[r.alert_level] ?? null;
      case "powertrain":
        return r.powertrain;
      case "soc":
        return r.soc_pct;
      case "tas":
        return r.tas_grade === null ? null : (TAS_RANK[r.tas_grade] ?? null);
    }
  };
  const sign = view.dir === "asc" ? 1 : -1;
  return [...kept].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) return ka === kb ? a.device_id.localeCompare(b.device_id) : ka === null ? 1 : -1;
    const c = typeof ka === "number" && typeof kb === "number" ? ka - kb : String(ka).localeCompare(String(kb));
    return c !== 0 ? sign * c : a.device_id.localeCompare(b.device_id);
  });
}

/** The view from a query string: anything unknown falls back to the default (device id, ascending; no filter). */
export function fleetTableViewOf(q: Record<string, string | string[] | undefined>): FleetTableView {
  const one = (k: string) => (typeof q[k] === "string" && q[k] !== "" ? q[k] : undefined);
  const sort = (FLEET_SORT_KEYS as readonly string[]).includes(one("sort") ?? "") ? (one("sort") as FleetSortKey) : "device";
  return { sort, dir: one("dir") === "desc" ? "desc" : "asc", status: one("status"), alert: one("alert"), powertrain: one("powertrain") };
}
