import type { AlertAgent } from "@/lib/vocabulary/alerts";
import { formatDateTime } from "./format";
import type { Powertrain } from "@/lib/vocabulary/powertrain";
import type { Knockout, TasPillar } from "@/lib/vocabulary/scores";

/**
 * The words a fleet manager reads for FDP's vocabulary (the API keeps its keys): one name per concept,
 * used by every page and PDF, so "odometer_integrity detector" or "electrical 12v" never reach a person.
 */

export const AGENT_NAMES: Readonly<Record<AlertAgent, string>> = {
  battery: "Battery",
  diagnostics: "Diagnostics",
  driving: "Driving",
  odometer_integrity: "Odometer check",
  charging: "Charging",
};

export const PILLAR_NAMES: Readonly<Record<TasPillar, string>> = {
  battery_health: "Battery health",
  usage_behaviour: "Usage and driving",
  contractual_market_risk: "Contract and market risk",
  regulatory_compliance: "Regulatory compliance",
};

/** Where a Total Asset Score pillar's figure comes from (the API's `source`). */
export const PILLAR_SOURCES: Readonly<Record<string, string>> = {
  oem_bms: "reported by the battery management system",
  telemetry_derived: "from telemetry",
  master_data: "from the vehicle's master data",
  telemetry_and_master_data: "from telemetry and master data",
  insufficient_data: "too little data: neutral 50",
  not_applicable: "does not apply",
};

export const KNOCKOUT_NAMES: Readonly<Record<Knockout, string>> = {
  soh_below_60: "battery state of health below 60 %",
  odometer_manipulation: "odometer rolled back (manipulation)",
};

/** Unit suffixes of FDP's keys, with the unit a person reads. */
const KEY_UNITS: Readonly<Record<string, string>> = { pct: "%", pp: "percentage points", kw: "kW", kwh: "kWh", km: "km", kmh: "km/h", v: "V", c: "°C" };
const KEY_ACRONYMS = new Set(["soc", "soh", "dtc", "id", "bms", "tas", "eol", "obd", "vin", "dc", "ac", "gps", "ecu"]);

/**
 * A vocabulary key FDP has no words for in a table, as readable words, its unit suffix spelled out:
 * "drop_pp" → "drop (percentage points)", "soh_pct" → "SoH (%)", "previous_state" → "previous state".
 */
export function keyWords(key: string): string {
  const parts = key.split("_").filter(Boolean);
  const unit = parts.length > 1 ? KEY_UNITS[parts.at(-1)!] : undefined;
  const body = (unit ? parts.slice(0, -1) : parts).map((w) => (w === "soh" ? "SoH" : w === "soc" ? "SoC" : KEY_ACRONYMS.has(w) ? w.toUpperCase() : w)).join(" ");
  return unit ? `${body} (${unit})` : body;
}

export const wordsFor = <K extends string>(table: Readonly<Record<K, string>>, key: string): string => (table as Readonly<Record<string, string>>)[key] ?? keyWords(key);

export const POWERTRAIN_NAMES: Readonly<Record<Powertrain, string>> = {
  BEV: "Battery electric (BEV)",
  PHEV: "Plug-in hybrid (PHEV)",
  HEV: "Hybrid (HEV)",
  ICE: "Combustion engine (ICE)",
};

export const CONFIDENCE_WORDS: Readonly<Record<"high" | "medium" | "low", string>> = {
  high: "high confidence",
  medium: "medium confidence",
  low: "low confidence",
};

/** Keys that appear inside the scores' sentences (limitations, reasons), with their words. */
const KEYS_IN_TEXT: Readonly<Record<string, string>> = {
  ...KNOCKOUT_NAMES,
  ...PILLAR_NAMES,
  odometer_km: "odometer",
  soh_pct: "state of health",
  soc_pct: "state of charge",
  battery_voltage: "12 V battery voltage",
  dtc_codes: "trouble codes",
  electrical_12v: "12 V battery",
  odometer_integrity: "odometer check",
};

/**
 * A sentence the API writes for developers and people alike (a limitation, a reason, an alert's
 * prediction), made plain for a page: every vocabulary key in it becomes words ("knockout
 * soh_below_60" → "knockout battery state of health below 60 %") and every ISO instant the fleet's
 * time ("2026-11-07T11:40:12.000Z" → "7 Nov 2026, 13:40"). The API's own text is unchanged.
 */
export function plainWords(text: string): string {
  return text
    .replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (k) => KEYS_IN_TEXT[k] ?? keyWords(k))
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g, (iso) => formatDateTime(iso, iso));
}
