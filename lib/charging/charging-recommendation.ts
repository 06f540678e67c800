/**
 * The charging recommendation (endpoint 15, SPEC 2.13). Pure: the vehicle's state, the options and the
 * spot-price curve in, the recommendation out. Methodology: docs/methodology/charging.md.
 *
 * 1. Energy: (target − SOC) × nominal capacity × SoH (the SOC is a share of today's usable capacity)
 *    into the battery; ÷ the charging efficiency of the mode (lib/vocabulary/charging.ts) at the plug.
 * 2. Mode: AC when the whole charge fits before the deadline at the AC power, else DC, else DC from now
 *    anyway (the target cannot be met; starting at once comes closest). The reason warns of battery wear
 *    only for DC above HIGH_POWER_DC_KW (100 kW), the power Geotab's finding is about.
 * 3. Below the minimum level, the part up to it is charged at once, whatever the price.
 * 4. The rest: the cheapest contiguous window between the end of that part and the deadline on the known
 *    prices (cheapest-window.ts), compared with charging everything from now.
 * 5. Without usable prices no optimum is claimed: the rest starts at the latest safe start (the latest
 *    start that still reaches the target a margin before the deadline), or now when there is no room.
 */
import { CHARGING_EFFICIENCY, HIGH_POWER_DC_KW } from "@/lib/vocabulary/charging";
import { HOUR_MS, MINUTE_MS, helsinkiOffsetHours } from "@/lib/seed/calendar";
import { CHARGING_METHOD_VERSION, LATEST_START_MARGIN_SHARE, LATEST_START_MIN_MARGIN_MINUTES, SOC_STALE_HOURS } from "@/lib/vocabulary/charging-defaults";
import { cheapestWindow, sessionCost, type PriceSlot } from "./cheapest-window";

export interface ChargingVehicle {
  device_id: string;
  soc: { pct: number; at: Date };
  /** Nominal capacity from master data, kWh. */
  battery_kwh: number;
  /** Latest plausible SoH, %, or null (the nominal capacity is then used as is). */
  soh_pct: number | null;
}

export interface ChargingOptions {
  targetSocPct: number;
  minSocPct: number;
  deadlineMs: number;
  acPowerKw: number;
  dcPowerKw: number;
}

export interface ChargingPrices {
  /** c/kWh incl. VAT, contiguous, sorted. */
  slots: readonly PriceSlot[];
  source: string;
}

type Recommendation = "charge_now" | "charge_later" | "no_charging_needed";

interface ChargingPlan {
  device_id: string;
  recommendation: Recommendation;
  soc_current_pct: number;
  soc_reported_at: string;
  soc_target_pct: number;
  soc_min_pct: number;
  energy_needed_kwh: number;
  energy_to_battery_kwh: number;
  battery_capacity_kwh: number;
  charging_mode: "ac" | "dc";
  charging_power_kw: number;
  charging_duration_minutes: number;
  deadline: string;
  immediate_charge: { start: string; end: string; energy_kwh: number } | null;
  cheapest_window: { start: string; end: string; avg_price_cents_kwh: number } | null;
  /** Without usable prices: the latest start of the (rest of the) charge that keeps the margin; else null. */
  latest_safe_start: string | null;
  current_price_cents_kwh: number | null;
  estimated_cost_cheapest_eur: number | null;
  estimated_cost_now_eur: number | null;
  savings_pct: number | null;
  price_source: string | null;
  reason: string;
  method_version: string;
  generated_at: string;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
/** Charging time in ms for `plugKwh` at `powerKw`, rounded up to the millisecond (as cheapestWindow does). */
const durationMs = (plugKwh: number, powerKw: number) => Math.ceil((plugKwh / powerKw) * HOUR_MS - 1e-6);

/** `HH:MM` Helsinki wall-clock time of an instant, prefixed with its date when that is not the Helsinki day of `nowMs`. */
export function helsinkiClock(ms: number, nowMs: number): string {
  const local = (t: number) => new Date(t + helsinkiOffsetHours(t) * HOUR_MS);
  const d = local(ms);
  const hhmm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  const sameDay = d.toISOString().slice(0, 10) === local(nowMs).toISOString().slice(0, 10);
  return sameDay ? hhmm : `${d.toISOString().slice(0, 10)} ${hhmm}`;
}

function minutesText(ms: number): string {
  const total = Math.round(ms / MINUTE_MS);
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const kwh = (x: number) => `${round(x, 1)} kWh`;
const pct = (x: number) => `${round(x, 1)} %`;

/** The price of the slot that contains `atMs`, or null. */
function priceAt(slots: readonly PriceSlot[], atMs: number): number | null {
  const s = slots.find((x) => x.startMs <= atMs && atMs < x.endMs);
  return s ? s.centsPerKwh : null;
}

export function chargingPlan({
  vehicle,
  options,
  prices,
  now,
}: {
  vehicle: ChargingVehicle;
  options: ChargingOptions;
  /** null: no live or cached prices (the recommendation is then made from the SOC alone). */
  prices: ChargingPrices | null;
  now: Date;
}): ChargingPlan {
  const nowMs = now.getTime();
  const soc = vehicle.soc.pct;
  const { targetSocPct: target, minSocPct: min, deadlineMs } = options;
  const capacity = vehicle.battery_kwh * (vehicle.soh_pct !== null ? vehicle.soh_pct / 100 : 1);
  const toBattery = Math.max(0, ((target - soc) / 100) * capacity);
  const deadlineText = helsinkiClock(deadlineMs, nowMs);

  const base = {
    device_id: vehicle.device_id,
    soc_current_pct: round(soc, 1),
    soc_reported_at: vehicle.soc.at.toISOString(),
    soc_target_pct: target,
    soc_min_pct: min,
    battery_capacity_kwh: round(capacity, 2),
    deadline: new Date(deadlineMs).toISOString(),
    price_source: prices?.source ?? null,
    latest_safe_start: null,
    method_version: CHARGING_METHOD_VERSION,
    generated_at: now.toISOString(),
  };
  const currentPrice = prices ? priceAt(prices.slots, nowMs) : null;

  if (toBattery <= 0) {
    return {
      ...base,
      recommendation: "no_charging_needed",
      energy_needed_kwh: 0,
      energy_to_battery_kwh: 0,
      charging_mode: "ac",
      charging_power_kw: options.acPowerKw,
      charging_duration_minutes: 0,
      immediate_charge: null,
      cheapest_window: null,
      current_price_cents_kwh: currentPrice,
      // Nothing to buy: both costs are zero when prices are known, unknown (null) otherwise.
      estimated_cost_cheapest_eur: prices ? 0 : null,
      estimated_cost_now_eur: prices ? 0 : null,
      savings_pct: null,
      reason: `The state of charge (${pct(soc)}) is already at or above the ${target} % target: no charging needed before ${deadlineText} (Helsinki time).`,
    };
  }

  // Mode: AC when the whole charge fits before the deadline; else DC when DC is faster; else (neither
  // meets the deadline and DC is no faster) AC, which comes as close and spares the battery.
  const plugAc = toBattery / CHARGING_EFFICIENCY.ac;
  const plugDc = toBattery / CHARGING_EFFICIENCY.dc;
  const acMs = durationMs(plugAc, options.acPowerKw);
  const dcMs = durationMs(plugDc, options.dcPowerKw);
  const timeLeft = deadlineMs - nowMs;
  const mode: "ac" | "dc" = acMs <= timeLeft || dcMs >= acMs ? "ac" : "dc";
  const power = mode === "ac" ? options.acPowerKw : options.dcPowerKw;
  const efficiency = CHARGING_EFFICIENCY[mode];
  const plugTotal = mode === "ac" ? plugAc : plugDc;
  const totalMs = mode === "ac" ? acMs : dcMs;
  const meetsDeadline = totalMs <= timeLeft;
  const modeText = `${round(power, 1)} kW ${mode.toUpperCase()}`;
  // The wear warning only where the finding applies: DC above 100 kW (lib/vocabulary/charging.ts, Geotab).
  const wearNote =
    power > HIGH_POWER_DC_KW
      ? ` DC charging above ${HIGH_POWER_DC_KW} kW wears the battery about twice as fast as AC (Geotab, 22,700 EVs: up to 3.0 % of capacity a year against about 1.5 %): use it only when the deadline demands it.`
      : "";
  const dcNote =
    mode === "dc"
      ? ` At ${round(options.acPowerKw, 1)} kW AC the charge would take ${minutesText(acMs)}, more than the ${minutesText(Math.max(0, timeLeft))} left, so DC it is.${wearNote}`
      : "";
  const staleSoc =
    nowMs - vehicle.soc.at.getTime() > SOC_STALE_HOURS * HOUR_MS
      ? ` The state of charge was last reported ${minutesText(nowMs - vehicle.soc.at.getTime())} ago (${vehicle.soc.at.toISOString()}); the plan assumes it has not changed since.`
      : "";
  const costNote = " Energy cost at spot prices incl. VAT; grid fees and retail margins excluded.";

  // The part up to the minimum level, charged at once. Durations are split from the total (not rounded
  // up twice), so the immediate part and the rest always add up to the total charging time.
  const immediateBattery = soc < min ? Math.min(toBattery, ((min - soc) / 100) * capacity) : 0;
  const immediatePlug = immediateBattery / efficiency;
  const immediateMs = immediatePlug > 0 ? Math.min(totalMs, durationMs(immediatePlug, power)) : 0;
  const immediate = immediatePlug > 0 ? { start: base.generated_at, end: new Date(nowMs + immediateMs).toISOString(), energy_kwh: round(immediatePlug, 2) } : null;
  const restPlug = plugTotal - immediatePlug;
  const restMs = totalMs - immediateMs;

  const plan = {
    ...base,
    energy_needed_kwh: round(plugTotal, 2),
    energy_to_battery_kwh: round(toBattery, 2),
    charging_mode: mode,
    charging_power_kw: round(power, 2),
    charging_duration_minutes: round(totalMs / MINUTE_MS, 1),
    immediate_charge: immediate,
    current_price_cents_kwh: currentPrice,
  };
  const immediateText = immediate
    ? `The state of charge (${pct(soc)}) is below the ${min} % minimum: charge ${kwh(immediatePlug)} at once, until ${helsinkiClock(nowMs + immediateMs, nowMs)}.`
    : "";
  const eur = (cents: number | null) => (cents === null ? null : round(cents / 100, 2));
  const savingsOf = (nowCents: number | null, planCents: number | null) =>
    nowCents !== null && planCents !== null && nowCents > 0 ? round(((nowCents - planCents) / nowCents) * 100, 1) : null;
  const costNowCents = prices ? sessionCost(prices.slots, nowMs, nowMs + totalMs, power) : null;
  const immediateCents = prices && immediateMs > 0 ? sessionCost(prices.slots, nowMs, nowMs + immediateMs, power) : 0;

  // The minimum level is the target (or the rest is nothing): the immediate charge is the whole plan.
  if (restMs <= 0) {
    return {
      ...plan,
      recommendation: "charge_now",
      cheapest_window: null,
      estimated_cost_cheapest_eur: eur(costNowCents),
      estimated_cost_now_eur: eur(costNowCents),
      savings_pct: savingsOf(costNowCents, costNowCents),
      reason: `${immediateText} That reaches the ${target} % target${meetsDeadline ? ` before ${deadlineText}` : `, after the ${deadlineText} deadline`}: there is nothing left to schedule.${dcNote}${staleSoc}${prices ? costNote : ""}`,
    };
  }

  // The rest's window: after the immediate part, before the deadline (or, when the deadline cannot be
  // met, the session from now: the one that comes closest).
  const window = prices
    ? cheapestWindow({
        slots: prices.slots,
        earliestMs: nowMs + immediateMs,
        deadlineMs: meetsDeadline ? deadlineMs : nowMs + totalMs,
        energyKwh: restPlug,
        powerKw: power,
        durationMs: restMs,
      })
    : null;

  if (!prices || window === null) {
    // No optimum can be computed: no price is claimed for any hour, and the plan does not start at once
    // unless it must (docs/methodology/charging.md "Without prices").
    const why = !prices
      ? "No live or recently cached spot prices are available, so no cheaper window can be chosen"
      : `The known spot prices (until ${helsinkiClock(prices.slots[prices.slots.length - 1]!.endMs, nowMs)}) do not cover a ${minutesText(restMs)} charge before the deadline, so no cheapest window can be chosen`;
    const restStartMs = nowMs + immediateMs;
    const marginMs = Math.max(LATEST_START_MIN_MARGIN_MINUTES * MINUTE_MS, LATEST_START_MARGIN_SHARE * restMs);
    // Rounded down to the whole minute: a clean time, and only ever more margin.
    const latestMs = Math.floor((deadlineMs - marginMs - restMs) / MINUTE_MS) * MINUTE_MS;
    const rest = immediate ? `the remaining ${kwh(restPlug)}` : kwh(restPlug);
    let what: string;
    let later = false;
    if (!meetsDeadline) {
      what = `charge now at ${modeText}: even so the ${target} % target is not reached before ${deadlineText} (${minutesText(totalMs)} needed).`;
    } else if (latestMs > restStartMs) {
      later = true;
      what = `start charging${immediate ? " the rest" : ""} by ${helsinkiClock(latestMs, nowMs)} (Helsinki time) at the latest. That is not a price-optimised window: it is the latest start at ${modeText} (${kwh(restPlug)}, ${minutesText(restMs)}) that still reaches ${target} % ${minutesText(marginMs)} before the ${deadlineText} deadline (the margin is a quarter of the charging time, at least an hour: charging can run slower than planned, in the cold for instance).`;
    } else {
      what = `charge ${rest} now at ${modeText} (${minutesText(restMs)}) to reach ${target} % before ${deadlineText}: starting now leaves only ${minutesText(Math.max(0, deadlineMs - restStartMs - restMs))} to spare.`;
    }
    return {
      ...plan,
      recommendation: later && !immediate ? "charge_later" : "charge_now",
      cheapest_window: null,
      latest_safe_start: later ? new Date(latestMs).toISOString() : null,
      estimated_cost_cheapest_eur: null,
      estimated_cost_now_eur: eur(costNowCents),
      savings_pct: null,
      reason: `${[immediateText, `${why}: ${what}`].filter(Boolean).join(" ")}${dcNote}${staleSoc}`,
    };
  }

  // A gap in the prices under the immediate part or under "charging from now" leaves that cost unknown.
  const cheapestCents = immediateCents === null ? null : immediateCents + window.costCents;
  const startsNow = window.startMs <= nowMs + immediateMs;
  const savings = savingsOf(costNowCents, cheapestCents);
  const windowText = `${helsinkiClock(window.startMs, nowMs)} to ${helsinkiClock(window.endMs, window.startMs)}`;
  const avg = round(window.avgCentsPerKwh, 2);
  let reason: string;
  if (!meetsDeadline) {
    reason = `${immediateText ? `${immediateText} ` : ""}Charge now at ${modeText}: the ${target} % target needs ${minutesText(totalMs)}, more than the ${minutesText(Math.max(0, timeLeft))} left before ${deadlineText}.`;
  } else if (startsNow && !immediate) {
    reason = `Charging now at ${modeText} (${windowText}, ${minutesText(totalMs)}, ${avg} c/kWh on average) is the cheapest window before ${deadlineText} on the known prices.`;
  } else if (startsNow) {
    reason = `${immediateText} Continuing straight on to ${target} % (until ${helsinkiClock(window.endMs, nowMs)}, ${modeText}) is also the cheapest window before ${deadlineText}.`;
  } else {
    const plannedCost = cheapestCents === null ? null : eur(cheapestCents);
    const saved =
      plannedCost !== null && plannedCost < 0
        ? `; at the negative prices of that window the energy pays ${-plannedCost} €`
        : savings !== null && savings > 0
          ? `, ${savings} % less than charging now`
          : "";
    reason = `${immediateText ? `${immediateText} Then charge` : "Charge"} ${immediate ? "the remaining " : ""}${kwh(restPlug)} at ${modeText} from ${windowText} (Helsinki time): the cheapest ${minutesText(window.endMs - window.startMs)} before ${deadlineText} on the known prices, ${avg} c/kWh on average${saved}.`;
  }
  const curveEnd = prices.slots[prices.slots.length - 1]!.endMs;
  const unpublished =
    meetsDeadline && deadlineMs > curveEnd
      ? ` Prices after ${helsinkiClock(curveEnd, nowMs)} are not published yet (the next day's come out in the early afternoon, Finnish time): a cheaper window may appear then.`
      : "";
  return {
    ...plan,
    recommendation: startsNow || immediate ? "charge_now" : "charge_later",
    cheapest_window: { start: new Date(window.startMs).toISOString(), end: new Date(window.endMs).toISOString(), avg_price_cents_kwh: avg },
    estimated_cost_cheapest_eur: eur(cheapestCents),
    estimated_cost_now_eur: eur(costNowCents),
    savings_pct: savings,
    reason: `${reason}${dcNote}${unpublished}${staleSoc}${costNote}`,
  };
}
