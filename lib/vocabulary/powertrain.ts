/**
 * Powertrain: the one vocabulary for BEV / PHEV / HEV / ICE used by the database schema, the zod
 * schemas, the detectors, the scores and the sandbox. CONTRACT "Settled details": vehicle master
 * data, powertrain inference, EV counts.
 *
 * No imports beyond ./master-data: the drizzle schema (loaded by drizzle-kit without the `@/`
 * alias) depends on this file.
 */
import { isNewerMasterData, NEWER_MASTER_DATA_SQL } from "./master-data";

export const POWERTRAINS = ["BEV", "PHEV", "HEV", "ICE"] as const;
export type Powertrain = (typeof POWERTRAINS)[number];

/** The reports' powertrain groups (emissions per vehicle, the CSRD fleet mix): the four, and `unknown` for a vehicle without one. */
export const REPORT_POWERTRAINS = [...POWERTRAINS, "unknown"] as const;
export type ReportPowertrain = (typeof REPORT_POWERTRAINS)[number];

/** How a device's powertrain was learnt: declared in `raw_data.vehicle`, or inferred from its signals. */
export const POWERTRAIN_SOURCES = ["master_data", "inferred"] as const;
export type PowertrainSource = (typeof POWERTRAIN_SOURCES)[number];

/** A stored `powertrain_source` as the vocabulary names it; anything else (none stored) is null. */
export function toPowertrainSource(x: unknown): PowertrainSource | null {
  return typeof x === "string" && (POWERTRAIN_SOURCES as readonly string[]).includes(x) ? (x as PowertrainSource) : null;
}

function isPowertrain(x: unknown): x is Powertrain {
  return typeof x === "string" && (POWERTRAINS as readonly string[]).includes(x);
}

/** The powertrain a stored or declared value names (case and surrounding spaces ignored); anything else is unknown (null). */
export function normalisePowertrain(p: unknown): Powertrain | null {
  if (typeof p !== "string") return null;
  const u = p.trim().toUpperCase();
  return isPowertrain(u) ? u : null;
}

/** Plug-in vehicles (BEV, PHEV): a traction battery charged from the grid. CONTRACT: `ev_count` counts exactly these. */
export function isPlugIn(p: Powertrain | null): boolean {
  return p === "BEV" || p === "PHEV";
}

/** CONTRACT: `ice_count` counts ICE and HEV (a full hybrid runs on fuel only). */
export function countsAsIce(p: Powertrain | null): boolean {
  return p === "ICE" || p === "HEV";
}

/** BEV, PHEV and HEV carry a traction battery, ICE does not; unknown (null) when the powertrain is unknown. */
export function hasTractionBattery(p: Powertrain | null): boolean | null {
  return p === null ? null : p !== "ICE";
}

/**
 * Whether a state of health reading is expected from this powertrain (one rule for TAS, vehicle health
 * and EOL): plug-ins (BEV, PHEV) report it; ICE has no traction battery and an HEV's small pack is kept
 * in a narrow window by the car, and OEM feeds do not report its SoH as a rule, so a missing SoH is
 * "not applicable" for both (a reported one is still used). Unknown powertrain: null (may be expected).
 */
export function sohExpected(p: Powertrain | null): boolean | null {
  return p === null ? null : isPlugIn(p);
}

/** The signals the CONTRACT's inference looks at. */
interface PowertrainSignals {
  socPct: number | null;
  fuelLevelPct: number | null;
}

const reported = (x: number | null | undefined) => typeof x === "number" && Number.isFinite(x);

/**
 * CONTRACT: without declared master data the powertrain is inferred from the signals: SOC and no
 * fuel level → BEV; both → PHEV; fuel level only → ICE; neither → unknown (null). An HEV cannot be
 * told from an ICE this way (neither reports its hybrid battery's SOC as a rule), so it is never inferred.
 */
export function inferPowertrain(records: Iterable<PowertrainSignals>): Powertrain | null {
  let soc = false;
  let fuel = false;
  for (const r of records) {
    soc ||= reported(r.socPct);
    fuel ||= reported(r.fuelLevelPct);
    if (soc && fuel) return "PHEV";
  }
  if (soc) return "BEV";
  if (fuel) return "ICE";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Precedence of the powertrain in the master data (the SQL upsert in lib/ingest/store-batch.ts and
// the JS mirror used by the sandbox replay and by the ingest's prediction while its upsert runs;
// tests/db/ingest-mirrors.test.ts checks they agree).

export interface PowertrainState {
  powertrain: Powertrain | null;
  source: PowertrainSource | null;
  /** Device time of the newest record that carried master data (any field), or null. */
  masterDataAt: Date | null;
}

/**
 * A declared powertrain always beats an inferred one, and a declaration at least as new as the
 * stored master data replaces an older declaration; a stored declaration is never replaced by an
 * inference; between inferences the newest batch's wins (an absent inference keeps the stored one).
 */
export function mergePowertrain(stored: PowertrainState | null, incoming: PowertrainState): { powertrain: Powertrain | null; source: PowertrainSource | null } {
  if (stored === null) return { powertrain: incoming.powertrain, source: incoming.source };
  if (incoming.source === "master_data" && (stored.source !== "master_data" || isNewerMasterData(incoming.masterDataAt, stored.masterDataAt))) {
    return { powertrain: incoming.powertrain, source: incoming.source };
  }
  if (stored.source === "master_data") return { powertrain: stored.powertrain, source: stored.source };
  return { powertrain: incoming.powertrain ?? stored.powertrain, source: incoming.source ?? stored.source };
}

/** The same rule as SQL text for the device upsert (`excluded` = payload row, `devices` = stored row). */
export function powertrainMergeSql(column: "powertrain" | "powertrain_source"): string {
  return `case
  when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${NEWER_MASTER_DATA_SQL}) then excluded.${column}
  when devices.powertrain_source = 'master_data' then devices.${column}
  else coalesce(excluded.${column}, devices.${column}) end`;
}
