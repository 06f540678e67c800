/**
 * The charging recommendation's defaults and bounds (endpoint 15). Each is documented, with its
 * source, in docs/methodology/charging.md; change CHARGING_METHOD_VERSION with any of them. A
 * vocabulary module, not lib/charging/: the request's schema (lib/schemas/charging.ts) states the
 * defaults and bounds, and a schema imports no domain module.
 */

import { MAX_PLAUSIBLE_KW } from "./charging";

export const CHARGING_METHOD_VERSION = "charging-2027.02";

/**
 * Default target: 80 %. For lithium-ion packs other than LFP, battery makers and charging guides
 * recommend a daily ceiling of 80–90 % (the top of the range stresses the cells; 100 % only before a
 * long trip), and the "20–80 rule" for daily use (Qmerit's home-charging guidance; chargie.org, citing
 * Geotab's 22,700-vehicle degradation study). A fleet car needs its daily range, not a full pack.
 */
export const DEFAULT_TARGET_SOC_PCT = 80;
/** Default minimum charged at once: 20 %, the lower bound of the same daily-use band. */
export const DEFAULT_MIN_SOC_PCT = 20;

/** Default deadline: the next 07:00 Helsinki time (vehicles leave the depot in the morning). */
export const DEFAULT_DEADLINE_LOCAL_HOUR = 7;
/** The default deadline is at least this far ahead (at 06:30 the deadline is tomorrow's 07:00, not in 30 minutes). */
export const MIN_DEFAULT_DEADLINE_LEAD_HOURS = 1;
/** A deadline further ahead is refused: day-ahead prices reach at most about 35 h ahead. */
export const MAX_DEADLINE_HOURS = 7 * 24;

/**
 * Default AC power: 11 kW, a three-phase 16 A wallbox at 400 V (√3 × 400 V × 16 A = 11.1 kW), the
 * common depot and home charger in Finland and the rating of most cars' on-board chargers. Used when
 * the vehicle's own telemetry shows no AC charge in the last 90 days.
 */
export const DEFAULT_AC_POWER_KW = 11;
/** Default DC power: 50 kW, the rating of the first-generation CCS/CHAdeMO fast chargers, a conservative floor. */
export const DEFAULT_DC_POWER_KW = 50;
/**
 * A charge above this power is DC whatever its status word: AC charging through a Type 2 connector is
 * at most 43 kW (three-phase 63 A), and on-board chargers of cars stop at 22 kW. Observed powers up to
 * 22 kW with no DC word count as AC.
 */
export const AC_MAX_OBSERVED_KW = 22;
/**
 * The vehicle's own power of each kind is the MEDIAN of its charging readings of that kind in the
 * look-back: one spike cannot set it, DC sessions taper (their median is nearer what a session
 * averages than their peak), and a plan on a slightly low power errs towards finishing early.
 */
/** Upper bound of the AC override: Type 2 AC at 63 A three-phase (√3 × 400 V × 63 A ≈ 43.6 kW). */
export const MAX_AC_POWER_KW = 43.5;
/** Upper bound of the DC override: the plausible-power cap of the charging detector (350 kW, docs/methodology/alerts.md). */
export const MAX_DC_POWER_KW = MAX_PLAUSIBLE_KW;
/**
 * Lower bounds of the powers: AC at the IEC 61851-1 minimum charging current, 6 A single-phase at 230 V
 * (≈ 1.4 kW); DC at 5 kW (below the smallest wall-mounted DC units). Observed powers below them are
 * not charging levels and are ignored.
 */
export const MIN_AC_POWER_KW = 1.3;
export const MIN_DC_POWER_KW = 5;
/** An AC-looking reading this close to a DC-level one belongs to a DC session (its taper), not to an AC charge. */
export const SESSION_PROXIMITY_MS = 2 * 60 * 60_000;
/**
 * Without usable prices (none, or not covering a window before the deadline) no time of day can be
 * called cheapest, so the plan claims no optimum: the rest of the charge starts at the LATEST SAFE START,
 * the latest start that still reaches the target this margin before the deadline — never "now" at the
 * evening peak when the deadline leaves room. Margin = max(LATEST_START_MIN_MARGIN_MINUTES,
 * LATEST_START_MARGIN_SHARE × the charging time): the constant-power model is optimistic (DC tapers,
 * a cold battery charges slower), and a longer charge can run late by more. An FDP choice, not a
 * sourced figure (docs/methodology/charging.md "Without prices").
 */
export const LATEST_START_MIN_MARGIN_MINUTES = 60;
export const LATEST_START_MARGIN_SHARE = 0.25;
/** A state of charge older than this is still used, and the reason says how old it is. */
export const SOC_STALE_HOURS = 24;
/** How far back the vehicle's own charging powers are looked up. */
export const OBSERVED_POWER_LOOKBACK_DAYS = 90;
