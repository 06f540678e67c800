import { CHARGING_WORDS, chargingWordSql } from "./charging";

/**
 * When a reading is usable: the validity rules every score and detector applies to the same signal,
 * so that one vehicle is never "healthy" in one answer and "unknown" in another. Ingest refuses values
 * outside the physical ranges (lib/schemas/ingest.ts); these rules also screen what is stored.
 */

/**
 * A state of health FDP can use: above 0 % (some battery management systems send 0 for "no value")
 * and at most 100 % (the ingest range). Methodology: docs/methodology/tas.md, vehicle-health.md.
 */
export function usableSohPct(x: number | null): number | null {
  return x !== null && Number.isFinite(x) && x > 0 && x <= 100 ? x : null;
}

/** A state of charge, 0–100 %. */
export function usableSocPct(x: number | null): number | null {
  return x !== null && Number.isFinite(x) && x >= 0 && x <= 100 ? x : null;
}

/**
 * Plausible range of a 12 V (auxiliary) system reading; outside it the value is a traction-pack
 * voltage or invalid. 16.5 V admits the 16 V lithium auxiliary packs (their rest band below).
 * Sources: docs/methodology/alerts.md ("Weak 12 V battery").
 */
export const LOW_VOLTAGE_RANGE_V = { min: 6, max: 16.5 } as const;

export function isLowVoltageSystemReading(v: number | null): v is number {
  return v !== null && Number.isFinite(v) && v >= LOW_VOLTAGE_RANGE_V.min && v <= LOW_VOLTAGE_RANGE_V.max;
}

/**
 * Below this a reported speed is GPS jitter, not movement: a vehicle at 1 km/h or more is moving (the
 * fleet status `driving`, the detectors, the fleet scores' driving minutes all use this one cut).
 */
export const MOVING_SPEED_KMH = 1;

export function isMovingSpeed(speedKmh: number | null): boolean {
  return speedKmh !== null && Number.isFinite(speedKmh) && speedKmh >= MOVING_SPEED_KMH;
}

// ---------------------------------------------------------------------------------------------
// State of health plausibility (one rule for the knockouts and every score)

/**
 * A jump of more than this between a SoH reading and the previous accepted one is implausible until
 * the following reading confirms it. Real BMS noise is ±1–2 pp between readings (and the sandbox adds
 * σ ≈ 0.5–1 pp); a genuine loss is about 2–3 pp per year (Geotab, 22,700 EVs, SOURCES.md "Batteries");
 * a BMS recalibration moves the value by a few pp. 8 pp is twice the widest noise spread between two
 * readings (2 × ±2 pp), so noise never trips it, and a real change is delayed by one reading only.
 */
export const SOH_JUMP_PP = 8;
/** A following reading within this of the jumped value confirms it (the noise band, 2 × 2 pp). */
export const SOH_CONFIRM_PP = 4;
/** How many of the latest plausible-by-value SoH readings per device the loaders judge (enough to judge the latest one and its base). */
export const SOH_RECENT_READINGS = 6;
/**
 * The loaders judge the latest SOH_RECENT_READINGS readings with 0 < SoH ≤ 100 (so implausible readings
 * cannot crowd the plausible ones out) and list at most this many implausible ones newer than the
 * oldest of them, only to flag them.
 */
export const SOH_IMPLAUSIBLE_LISTED = 12;
/** SoH trend: the base is the oldest plausible reading at most this many days before the latest one (the `earlySoh` device part). */
export const SOH_TREND_LOOKBACK_DAYS = 365;

export type SohFlagReason = "implausible_value" | "unconfirmed_jump";

export interface SohReading {
  pct: number;
  at: Date;
}

export interface SohFlag extends SohReading {
  reason: SohFlagReason;
}

export interface SohJudgement {
  /** The latest reading FDP uses (the latest plausible one), or null. */
  accepted: SohReading | null;
  /** Readings among those judged that are not used, oldest first. */
  flagged: SohFlag[];
}

/**
 * Judges a device's latest SoH readings (any order; at most a few): 0 (some BMSs send 0 for "no
 * value"), a value outside (0, 100] and a jump of more than SOH_JUMP_PP from the previous accepted
 * reading that the next plausible reading does not confirm (within SOH_CONFIRM_PP of it) are flagged
 * and not used. The latest reading, when it is such a jump, has nothing to confirm it yet: it is not
 * used, the previous accepted value is, until a later reading confirms the new level. The oldest
 * plausible reading of the window is the base. Methodology: docs/methodology/tas.md ("SoH plausibility").
 */
export function judgeSohReadings(readings: readonly SohReading[]): SohJudgement {
  const sorted = [...readings].filter((r) => Number.isFinite(r.at.getTime())).sort((a, b) => a.at.getTime() - b.at.getTime());
  const plausible = (x: number) => usableSohPct(x) !== null;
  const flagged: SohFlag[] = [];
  let accepted: SohReading | null = null;
  for (let i = 0; i < sorted.length; i++) {
    const r = sorted[i]!;
    if (!plausible(r.pct)) {
      flagged.push({ ...r, reason: "implausible_value" });
      continue;
    }
    if (accepted === null || Math.abs(r.pct - accepted.pct) <= SOH_JUMP_PP) {
      accepted = r;
      continue;
    }
    const next = sorted.slice(i + 1).find((n) => plausible(n.pct));
    if (next !== undefined && Math.abs(next.pct - r.pct) <= SOH_CONFIRM_PP) accepted = r;
    else flagged.push({ ...r, reason: "unconfirmed_jump" });
  }
  return { accepted, flagged };
}

/** One sentence per flagged SoH reading, for `limitations` and `data_quality`. */
export function sohFlagSentence(f: SohFlag): string {
  const at = f.at.toISOString();
  return f.reason === "implausible_value"
    ? `State of health reading ${f.pct} % at ${at} is implausible (0 or outside 0–100 %, some BMSs send 0 for "no value") and is not used.`
    : `State of health reading ${f.pct} % at ${at} jumps more than ${SOH_JUMP_PP} pp from the previous accepted reading and no following reading confirms it; it is not used.`;
}

// ---------------------------------------------------------------------------------------------
// State of health evidence: how old a reading may be and still count as measured

/**
 * CONTRACT "Evidence and trust": a traction battery's state of health counts as measured only if a
 * plausible reading is at most this many days older than the answer (a certificate's `generated_at`,
 * a score's `generated_at`). A battery loses about 2–3 pp of SoH a year on average (Geotab, 22,700
 * EVs, SOURCES.md "Batteries") but single packs fail faster, and a BMS recalibrates its estimate over
 * months; after 90 days a reading says what the battery was, not what it is.
 */
export const SOH_MAX_AGE_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * - `measured`: the latest plausible reading is recent enough to be used as today's value.
 * - `outdated`: there is one, but it is older than SOH_MAX_AGE_DAYS: it is never used as today's value
 *   (no grade, credit or score rests on it). A battery does not regain capacity, so it still bounds
 *   today's value from above: a low old reading may still cap a grade or cost value, never add any.
 * - `none`: no plausible reading at all.
 */
export type SohEvidence =
  | { status: "measured"; pct: number; read_at: Date; age_days: number; as_of: Date }
  | { status: "outdated"; pct: number; read_at: Date; age_days: number; as_of: Date }
  | { status: "none"; as_of: Date };

/** The age rule over the latest plausible reading (`judgeSohReadings`'s `accepted`) at time `now`. */
export function sohEvidence(accepted: SohReading | null, now: Date): SohEvidence {
  if (accepted === null || usableSohPct(accepted.pct) === null || !Number.isFinite(accepted.at.getTime())) return { status: "none", as_of: now };
  // A device clock ahead of ours makes a reading look younger than 0 days: it is read as just taken.
  const ageMs = Math.max(0, now.getTime() - accepted.at.getTime());
  const base = { pct: accepted.pct, read_at: accepted.at, age_days: Math.floor(ageMs / DAY_MS), as_of: now };
  // "At most 90 days older": to the millisecond (90 days and an hour is outdated, though its whole days say 90).
  return ageMs <= SOH_MAX_AGE_DAYS * DAY_MS ? { status: "measured", ...base } : { status: "outdated", ...base };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Today's state of health as a number: only a `measured` reading is one. */
export const measuredSohPct = (e: SohEvidence): number | null => (e.status === "measured" ? e.pct : null);

/** The sentence every answer uses for a reading that is too old (null unless `outdated`). */
export function outdatedSohSentence(e: SohEvidence): string | null {
  if (e.status !== "outdated") return null;
  return `The battery's state of health was not measured in the ${SOH_MAX_AGE_DAYS} days up to ${day(e.as_of)}: the last plausible reading, ${Math.round(e.pct * 10) / 10} % on ${day(e.read_at)}, is ${e.age_days} days old and is not used as today's value.`;
}

/** How an answer states its SoH evidence (`soh_evidence`, schema SohEvidence in lib/schemas/scores-device.ts). */
export interface SohEvidenceBody {
  status: SohEvidence["status"] | "not_applicable";
  max_age_days: number;
  last_reading_pct: number | null;
  last_reading_at: string | null;
  age_days: number | null;
  statement: string;
}

/**
 * `expected`: whether this powertrain's OEM reports a SoH (`sohExpected` of lib/vocabulary/powertrain.ts;
 * null = unknown). A reading that exists is stated whatever the powertrain.
 */
export function sohEvidenceBody(e: SohEvidence, expected: boolean | null): SohEvidenceBody {
  const common = { max_age_days: SOH_MAX_AGE_DAYS };
  if (e.status === "none") {
    return expected === false
      ? {
          status: "not_applicable",
          ...common,
          last_reading_pct: null,
          last_reading_at: null,
          age_days: null,
          statement: "No traction battery whose state of health the OEM reports (ICE or HEV): not applicable.",
        }
      : {
          status: "none",
          ...common,
          last_reading_pct: null,
          last_reading_at: null,
          age_days: null,
          statement: "The battery's state of health was not measured: no plausible reading from the vehicle's battery management system was ever received.",
        };
  }
  const reading = { last_reading_pct: Math.round(e.pct * 10) / 10, last_reading_at: e.read_at.toISOString(), age_days: e.age_days };
  if (e.status === "outdated") return { status: "outdated", ...common, ...reading, statement: outdatedSohSentence(e)! };
  return {
    status: "measured",
    ...common,
    ...reading,
    statement: `State of health ${reading.last_reading_pct} % read by the vehicle's battery management system on ${day(e.read_at)}, ${e.age_days} days before ${day(e.as_of)} (a reading at most ${SOH_MAX_AGE_DAYS} days old counts as measured).`,
  };
}

// ---------------------------------------------------------------------------------------------
// The resting 12 V reading (vehicle health's electrical_12v and the battery detector's low-12 V rule)

/**
 * The vehicle must have been off for this long before a 12 V reading is a resting (open-circuit)
 * voltage: after driving or charging a lead-acid battery carries a surface charge that decays over
 * hours. Battery-care guidance asks for no charge or discharge for at least 6–8 h, preferably 24 h,
 * before an open-circuit reading (e.g. rvsystems.net "Batteries state of charge": ≥ 8 h; USA Clean
 * battery tips: ≥ 6 h; SOURCES.md "Batteries": the table holds only after a settle time). FDP takes
 * the lower bound, 6 h: a parked car is never fully open-circuit (its standby load), and a longer wait
 * would leave most feeds without any resting reading. Measured from the readings: no reading in the
 * settle time before it shows the vehicle awake (moving, ignition on, charging); a feed silent that long
 * counts as parked, since telematics units report while the vehicle is awake.
 */
export const SETTLE_MS = 6 * 3_600_000;

/**
 * A stored reading (table alias `alias`) shows the vehicle awake: moving, ignition on, charging power,
 * or a charging word. The SQL twin of isAwakeRecord (lib/detectors/common.ts); never null. The settle
 * time's start in vehicle health's resting-12 V rule (lib/telemetry/queries/resting-12v-sql.ts) and in the
 * ingest's device context (lib/ingest/store-batch.ts).
 */
export function awakeSql(alias: string): string {
  return `coalesce(coalesce(${alias}.speed_kmh, 0) > 0 or ${alias}.ignition = 1 or coalesce(${alias}.charging_power_kw, 0) > 0
    or ${chargingWordSql(`coalesce(${alias}.charging_status, '')`)} in (${CHARGING_WORDS.map((w) => `'${w}'`).join(", ")}), false)`;
}

/**
 * A lead-acid battery never rests above this; above it, up to LITHIUM_16V_REST_BAND_V.min, the reading
 * is a charge voltage, not a rest voltage: a DC-DC converter holding it (13.3–13.5 V), a charger or
 * maintainer (AGM absorption 14.4–14.8 V). A 12 V LiFePO4 pack (4 cells) rests at about 13.2–13.6 V
 * full, inside this band too: without a chemistry word it cannot be told from a charge voltage.
 */
export const LEAD_ACID_REST_MAX_V = 13.0;
/**
 * The rest band of 16 V lithium-ion auxiliary packs, by voltage alone (no chemistry word): 4 cells ×
 * 3.6–4.1 V; Tesla's 16 V Li-ion low-voltage battery is kept at 15.5–15.8 V (WeberAuto, "The 16V Li-Ion
 * Battery used by Tesla"; SOURCES.md "Batteries"). The band starts ABOVE every lead-acid charge voltage:
 * an AGM battery on a charger or maintainer reads 14.4–14.8 V (absorption 2.40–2.45 V/cell = 14.4–14.7 V,
 * element82.co.nz "Charging voltages"; AGM full charge 14.6–14.8 V, mijnauto.blog "12V AGM battery
 * charging voltage"), so a reading up to 14.8 V is a charge voltage, not a lithium pack. FDP has no
 * sourced curve for lithium packs, so they are recognised and not judged on the lead-acid table.
 */
export const LITHIUM_16V_REST_BAND_V = { min: 14.9, max: 16.5 } as const;

/** `raw_data.lv_battery_chemistry` words that name a lithium auxiliary battery (lithium-ion, LFP). */
export const LITHIUM_CHEMISTRY_RE = "^(li|lithium|lfp|lifepo4|li_ion|liion|nmc)";

export type TwelveVoltChemistry = "lead_acid" | "lithium";

export interface TwelveVoltSample {
  voltage: number | null;
  speedKmh: number | null;
  ignition: 0 | 1 | null;
  charging: boolean;
  /** `raw_data.voltage_kind` (traction words exclude the reading). */
  voltageKind: string | null;
  /** `raw_data.lv_battery_chemistry`. */
  chemistry: string | null;
}

export const TRACTION_VOLTAGE_KIND_RE = "^(traction|hv|high|pack|main)([_ -]|$)";

/** The vehicle is off: ignition 0, or unknown ignition and speed 0; never while moving or charging. */
function isOffAndNotCharging(s: Pick<TwelveVoltSample, "speedKmh" | "ignition" | "charging">): boolean {
  if (s.charging) return false;
  const speed = s.speedKmh !== null && Number.isFinite(s.speedKmh) ? s.speedKmh : null;
  if (speed !== null && speed > 0) return false;
  return s.ignition === 0 || (s.ignition === null && speed === 0);
}

/**
 * The 12 V reading of a sample when it can be judged as a resting voltage, with the chemistry whose
 * curve applies; null when it cannot (not off, charging, traction voltage, outside the plausible range,
 * or above 13.0 V and below the 16 V lithium band without a lithium chemistry word: a charge voltage,
 * not a rest voltage). `settled` is the caller's finding that no
 * reading of the settle time before it shows the vehicle awake.
 */
export function restingTwelveVolt(s: TwelveVoltSample, settled: boolean): { v: number; chemistry: TwelveVoltChemistry } | null {
  const v = s.voltage;
  if (!settled || !isLowVoltageSystemReading(v) || !isOffAndNotCharging(s)) return null;
  if (s.voltageKind !== null && new RegExp(TRACTION_VOLTAGE_KIND_RE).test(s.voltageKind.trim().toLowerCase())) return null;
  const lithiumWord =
    s.chemistry !== null &&
    new RegExp(LITHIUM_CHEMISTRY_RE).test(
      s.chemistry
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, "_"),
    );
  if (lithiumWord || (v >= LITHIUM_16V_REST_BAND_V.min && v <= LITHIUM_16V_REST_BAND_V.max)) return { v, chemistry: "lithium" };
  return v <= LEAD_ACID_REST_MAX_V ? { v, chemistry: "lead_acid" } : null;
}
