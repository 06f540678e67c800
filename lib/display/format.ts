/**
 * The display rules: how every figure a person reads is written, on the dashboard, in the PDFs and on
 * the public verify page alike (issue 30: "97 / 100" beside "97.4 / 100", "38 048 km" beside
 * "38,047.5 km", three date styles on one product). The API's JSON keeps full precision; these rules
 * are for people only.
 *
 * - English words with British conventions: thousands grouped with a comma, a point for decimals,
 *   dates as "28 Nov 2026" (day month year, no ambiguity between 03/04 readers).
 * - Times in the fleet's time zone, named once on a page ("Helsinki time"): FDP's fleets are Finnish,
 *   and its methods already count days and night hours in Europe/Helsinki (spot prices, the mileage
 *   forecast, the night-driving share).
 * - Each kind of figure has one precision: scores one decimal, kilometres whole, percentages one
 *   decimal, money whole euros for values and cents for charging costs.
 * - What was not measured says so in words (NOT_MEASURED); it is never written as 0 or a dash.
 */

const DISPLAY_LOCALE = "en-GB";
const FLEET_TIME_ZONE = "Europe/Helsinki";
/** How the fleet's time zone is named after a time, once per figure or caption. */
export const FLEET_TIME_ZONE_NAME = "Helsinki time";
export const NOT_MEASURED = "not measured";

type Num = number | null | undefined;

const fixed = new Map<number, Intl.NumberFormat>();
/** Exactly `digits` decimals, grouped thousands: "38,048", "97.4". */
function fixedFormat(digits: number): Intl.NumberFormat {
  let f = fixed.get(digits);
  if (!f) {
    f = new Intl.NumberFormat(DISPLAY_LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    fixed.set(digits, f);
  }
  return f;
}

/** A finite number, or the words for its absence. Negative zero prints as 0. */
export function formatNumber(value: Num, digits = 0, missing = NOT_MEASURED): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return missing;
  const s = fixedFormat(digits).format(value);
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

function withUnit(value: Num, digits: number, unit: string, missing: string): string {
  const n = formatNumber(value, digits, missing);
  return n === missing ? missing : `${n}${unit}`;
}

/** A 0–100 score: "97.4 / 100". */
export const formatScore = (value: Num, missing = NOT_MEASURED) => withUnit(value, 1, " / 100", missing);
/** A percentage: "96.0 %" (one decimal unless asked otherwise). */
export const formatPct = (value: Num, digits = 1, missing = NOT_MEASURED) => withUnit(value, digits, " %", missing);
/**
 * Kilometres inside the API's evidence notes ("12,345.6 km"): grouped thousands, at most one decimal, as
 * those notes have always written them. One formatter made once: `toLocaleString` with options builds a
 * new one per call, 1.5 s of CPU in a test run of the distance notes.
 */
const kmInNotes = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
export const formatKmInNote = (km: number): string => kmInNotes.format(km);
/** A distance: "38,048 km". */
export const formatKm = (value: Num, missing = NOT_MEASURED) => withUnit(value, 0, " km", missing);
export const formatKwh = (value: Num, digits = 1, missing = NOT_MEASURED) => withUnit(value, digits, " kWh", missing);
export const formatKw = (value: Num, missing = NOT_MEASURED) => withUnit(value, 1, " kW", missing);
export const formatVolts = (value: Num, missing = NOT_MEASURED) => withUnit(value, 2, " V", missing);
export const formatCentsPerKwh = (value: Num, missing = NOT_MEASURED) => withUnit(value, 2, " c/kWh", missing);

const eurWhole = new Intl.NumberFormat(DISPLAY_LOCALE, { style: "currency", currency: "EUR", maximumFractionDigits: 0, minimumFractionDigits: 0 });
const eurCents = new Intl.NumberFormat(DISPLAY_LOCALE, { style: "currency", currency: "EUR", maximumFractionDigits: 2, minimumFractionDigits: 2 });
/** A vehicle's value in whole euros: "€24,300". */
export const formatEur = (value: Num, missing = NOT_MEASURED) => (value === null || value === undefined || !Number.isFinite(value) ? missing : eurWhole.format(value));
/** A charging cost to the cent: "€3.41". */
export const formatEurCents = (value: Num, missing = NOT_MEASURED) => (value === null || value === undefined || !Number.isFinite(value) ? missing : eurCents.format(value));

type DateLike = Date | string | number;
const toDate = (d: DateLike) => (d instanceof Date ? d : new Date(d));

const dateFormat = new Intl.DateTimeFormat(DISPLAY_LOCALE, { day: "numeric", month: "short", year: "numeric", timeZone: FLEET_TIME_ZONE });
const dateTimeFormat = new Intl.DateTimeFormat(DISPLAY_LOCALE, {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: FLEET_TIME_ZONE,
});
const timeFormat = new Intl.DateTimeFormat(DISPLAY_LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: FLEET_TIME_ZONE });
const weekdayTimeFormat = new Intl.DateTimeFormat(DISPLAY_LOCALE, { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: FLEET_TIME_ZONE });

/** Calendar days and months carry no time zone: they are read in UTC, where the API writes them. */
const monthFormat = new Intl.DateTimeFormat(DISPLAY_LOCALE, { month: "short", year: "numeric", timeZone: "UTC" });

function valid(d: DateLike): Date | null {
  const x = toDate(d);
  return Number.isNaN(x.getTime()) ? null : x;
}

/** A day: "28 Nov 2026", the fleet's calendar day. A bare YYYY-MM-DD is that day itself, not a UTC midnight. */
export function formatDate(d: DateLike | null | undefined, missing = "never"): string {
  if (d === null || d === undefined) return missing;
  if (typeof d === "string" && /^\d{4}-\d{2}-\d{2}$/.test(d)) d = `${d}T12:00:00Z`;
  const x = valid(d);
  return x ? dateFormat.format(x) : missing;
}

/** A calendar month: "Nov 2026" (an axis tick of a day-by-day chart; the day is a UTC calendar day). */
export function formatMonth(d: DateLike): string {
  const x = valid(d);
  return x ? monthFormat.format(x) : "";
}

/** An instant: "28 Nov 2026, 17:00" in the fleet's time zone (the page names it once: FLEET_TIME_ZONE_NAME). */
export function formatDateTime(d: DateLike | null | undefined, missing = "never"): string {
  if (d === null || d === undefined) return missing;
  const x = valid(d);
  return x ? dateTimeFormat.format(x) : missing;
}

/** A clock time: "17:00"; with the weekday ("Sat 17:00") when the chart spans days. */
export function formatTime(d: DateLike, withWeekday = false): string {
  const x = valid(d);
  if (!x) return "";
  return (withWeekday ? weekdayTimeFormat : timeFormat).format(x);
}
