/**
 * The charging-status vocabulary: which OEM words mean a charge is under way (and a DC one), and which
 * mean none is. OEMs spell them freely (`Fast-Charging`, `DC charging`), so a word is compared after
 * `chargingWord`: trimmed of white space, lower-case, white space and dashes as `_`. The fleet status, the detectors, the
 * battery snapshot and the fleet scores' SQL all read a status through this module.
 */

export const CHARGING_WORDS = ["charging", "fast_charging", "dc_charging", "ac_charging"] as const;
/** Charging words that mean a DC (fast) charge. */
export const DC_CHARGING_WORDS = ["dc_charging", "fast_charging"] as const;
/**
 * High-power DC charging, the kind that wears a battery measurably faster: above 100 kW. Geotab's EV
 * battery health study (more than 22,700 EVs of 21 makes and models, published January 2026): vehicles
 * that relied heavily on DC fast charging above 100 kW degraded up to about 3.0 % a year, against about
 * 1.5 % for those charged mainly on AC or lower-power DC (as reported by Power Progress, 13 Jan 2026,
 * https://www.powerprogress.com/news/report-finds-fast-charging-accelerates-ev-battery-degradation/8111388.article;
 * SOURCES.md "Batteries"). The finding says nothing against DC at or below 100 kW, so nothing here warns of it.
 * Used by the fleet scores' energy accounting and the charging recommendation's wear note.
 */
export const HIGH_POWER_DC_KW = 100;
/**
 * The highest rating of widely deployed public car chargers (CCS2 high-power chargers, e.g. Ionity:
 * 350 kW): above it a charging power is implausible (the charging detector's alert, lib/detectors/charging.ts),
 * and no charging recommendation may assume more (MAX_DC_POWER_KW, charging-defaults.ts).
 */
export const MAX_PLAUSIBLE_KW = 350;

/** Words that say the vehicle is not charging (so a missing charging power is known to be 0 kW). */
export const NOT_CHARGING_WORDS = [
  "not_charging",
  "disconnected",
  "unplugged",
  "idle",
  "none",
  "complete",
  "completed",
  "charge_complete",
  "fully_charged",
  "finished",
  "stopped",
] as const;

/** ASCII white space only, so that the SQL twin below (whose classes depend on the locale) agrees exactly. */
export function chargingWord(status: string): string {
  return status
    .replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "")
    .toLowerCase()
    .replace(/[ \t\n\r\f\v-]+/g, "_");
}

const CHARGING = new Set<string>(CHARGING_WORDS);
const NOT_CHARGING = new Set<string>(NOT_CHARGING_WORDS);

/** The status names an active charge. */
export function isChargingStatus(status: string | null | undefined): boolean {
  return typeof status === "string" && CHARGING.has(chargingWord(status));
}

/** The status says no charge is under way. */
export function isNotChargingStatus(status: string | null | undefined): boolean {
  return typeof status === "string" && NOT_CHARGING.has(chargingWord(status));
}

/** The same normalisation in SQL, for queries that classify statuses in the database. */
export function chargingWordSql(column: string): string {
  // The same explicit ASCII class as chargingWord (Postgres trim() strips spaces only, [[:space:]] is locale-bound).
  return `regexp_replace(lower(regexp_replace(${column}, '^[ \\t\\n\\r\\f\\v]+|[ \\t\\n\\r\\f\\v]+$', '', 'g')), '[ \\t\\n\\r\\f\\v-]+', '_', 'g')`;
}

/**
 * Charging efficiency, battery energy gained ÷ energy at the plug (methodology: docs/methodology/green-fleet.md).
 * - AC: 0.89. Touring Club Suisse, Green NCAP measurements 2022–2025 of 26 EVs at 11 kW three-phase:
 *   on average 11 % of the energy drawn from the grid is lost (about 7 % in the on-board AC→DC
 *   conversion, about 4 % in the battery and its thermal management). ADAC's 2022 wallbox tests
 *   (6–10 % at 11 kW) and its 2024 test of about 90 cars (14.5 % on average) bracket it.
 * - DC: 0.96 measured at the DC charger's output (what a DC station meters and bills): the AC→DC
 *   conversion happens in the station, upstream of that meter, so only the in-battery part of the TCS
 *   breakdown (about 4 %) remains. The station's own conversion losses are outside the vehicle's plug.
 */
export const CHARGING_EFFICIENCY = { ac: 0.89, dc: 0.96 } as const;
