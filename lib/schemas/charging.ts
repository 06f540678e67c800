import { z } from "zod";
import {
  DEFAULT_AC_POWER_KW,
  DEFAULT_DC_POWER_KW,
  DEFAULT_DEADLINE_LOCAL_HOUR,
  DEFAULT_MIN_SOC_PCT,
  DEFAULT_TARGET_SOC_PCT,
  MAX_AC_POWER_KW,
  MAX_DC_POWER_KW,
  MAX_DEADLINE_HOURS,
  MIN_AC_POWER_KW,
  MIN_DC_POWER_KW,
  OBSERVED_POWER_LOOKBACK_DAYS,
} from "@/lib/vocabulary/charging-defaults";
import { dateTime, deviceIdPath, intQueryParam, numberQueryParam } from "./common";

/** Endpoint 15 (SPEC 2.13). Query parameters are FDP's (SPEC names none); each has a documented default. */
export const chargingQuerySchema = z.object({
  target_soc_pct: intQueryParam({ min: 1, max: 100, fallback: DEFAULT_TARGET_SOC_PCT }).meta({
    description: `State of charge to reach by the deadline, %. Default ${DEFAULT_TARGET_SOC_PCT} (the daily ceiling battery makers recommend; docs/methodology/charging.md).`,
  }),
  min_soc_pct: intQueryParam({ min: 0, max: 100, fallback: DEFAULT_MIN_SOC_PCT }).meta({
    description: `Minimum charge level that must be reached at once (charged immediately, whatever the price), %. Default ${DEFAULT_MIN_SOC_PCT}; not above target_soc_pct.`,
  }),
  deadline: dateTime()
    .optional()
    .meta({
      description: `When the vehicle must be charged (RFC 3339 with offset), after now and at most ${MAX_DEADLINE_HOURS} h ahead. Default: the next ${String(DEFAULT_DEADLINE_LOCAL_HOUR).padStart(2, "0")}:00 Helsinki time at least one hour away.`,
      example: "2026-11-25T05:00:00Z",
    }),
  ac_power_kw: numberQueryParam({
    min: MIN_AC_POWER_KW,
    max: MAX_AC_POWER_KW,
    description: `AC charging power at the plug, kW. Default: the median of the vehicle's AC charging readings of the last ${OBSERVED_POWER_LOOKBACK_DAYS} days, else ${DEFAULT_AC_POWER_KW} kW (a three-phase 16 A wallbox).`,
  }),
  dc_power_kw: numberQueryParam({
    min: MIN_DC_POWER_KW,
    max: MAX_DC_POWER_KW,
    description: `DC charging power, kW. Default: the median of the vehicle's DC charging readings of the last ${OBSERVED_POWER_LOOKBACK_DAYS} days, else ${DEFAULT_DC_POWER_KW} kW.`,
  }),
});
export type ChargingQuery = z.output<typeof chargingQuerySchema>;

export const chargingParamsSchema = deviceIdPath();
export type ChargingRequest = z.output<typeof chargingParamsSchema> & ChargingQuery;

const CHARGING_RECOMMENDATIONS = ["charge_now", "charge_later", "no_charging_needed"] as const;
const CHARGING_MODES = ["ac", "dc"] as const;

export const chargingRecommendationSchema = z
  .object({
    device_id: z.string(),
    recommendation: z.enum(CHARGING_RECOMMENDATIONS),
    soc_current_pct: z.number().meta({ description: "The latest state-of-charge reading, %." }),
    soc_reported_at: dateTime().meta({ description: "When the vehicle reported that state of charge." }),
    soc_target_pct: z.number(),
    soc_min_pct: z.number().meta({ description: "The level charged at once, whatever the price." }),
    energy_needed_kwh: z.number().meta({ description: "Electricity drawn at the plug to reach the target (charging losses included): what is paid for." }),
    energy_to_battery_kwh: z.number().meta({ description: "Energy stored in the battery: (target − SOC) × capacity × SoH." }),
    battery_capacity_kwh: z.number().meta({ description: "Usable capacity today: nominal capacity (master data) × the latest plausible SoH when known." }),
    charging_mode: z.enum(CHARGING_MODES).meta({ description: "`ac` unless the deadline cannot be met on AC." }),
    charging_power_kw: z.number().meta({ description: "Power of the chosen mode at the plug, kW." }),
    charging_duration_minutes: z.number().meta({ description: "Charging time at that power (constant-power model)." }),
    deadline: dateTime().meta({ description: "When the target must be reached." }),
    immediate_charge: z
      .object({ start: dateTime(), end: dateTime(), energy_kwh: z.number() })
      .nullable()
      .meta({ description: "The part charged at once to reach soc_min_pct (null when the SOC is already at or above it)." }),
    cheapest_window: z.object({ start: dateTime(), end: dateTime(), avg_price_cents_kwh: z.number() }).nullable().meta({
      description: "The cheapest contiguous window for the rest of the charge before the deadline, on the known prices; null without prices (or when the rest needs no window).",
    }),
    latest_safe_start: dateTime().nullable().meta({
      description:
        "Only when no usable prices are known (none, or not covering a window before the deadline): the latest start of the (rest of the) charge at the planned power that still reaches the target a safety margin before the deadline (a quarter of the charging time, at least 60 minutes), rounded down to the minute. The plan then starts there (`charge_later`, or `charge_now` for the part up to the minimum) instead of at once: without prices no time is called cheapest. Null when prices chose the window, when nothing is left to schedule, or when there is no room for the margin (then charge now).",
    }),
    current_price_cents_kwh: z.number().nullable().meta({ description: "Spot price of the current slot, c/kWh incl. VAT; null without prices." }),
    estimated_cost_cheapest_eur: z
      .number()
      .nullable()
      .meta({ description: "Energy cost at spot prices incl. VAT of the recommended plan (immediate part + window); grid fees and retail margins excluded." }),
    estimated_cost_now_eur: z.number().nullable().meta({ description: "The same energy charged continuously from now." }),
    savings_pct: z.number().nullable().meta({ description: "(now − cheapest) ÷ now × 100; null when either cost is unknown or the cost now is not positive." }),
    price_source: z.string().nullable().meta({ description: "The spot-price source used (`porssisahko.net`, `entsoe`), or null when no live or cached prices were available." }),
    reason: z.string().meta({ description: "The recommendation in a plain sentence or two." }),
    method_version: z.string(),
    generated_at: dateTime(),
  })
  .meta({ id: "ChargingRecommendation" });

export type ChargingRecommendation = z.input<typeof chargingRecommendationSchema>;
