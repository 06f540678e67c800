import type { TenantCtx } from "@/lib/context";
import { UnprocessableError, UpstreamUnavailableError, ValidationError } from "@/lib/errors";
import { obtainSpotSeries } from "@/lib/energy/get-spot-prices";
import type { ChargingRecommendation, ChargingRequest } from "@/lib/schemas/charging";
import { oneDevice } from "@/lib/devices/one-device";
import { HOUR_MS, helsinkiDayNumber, helsinkiTime } from "@/lib/seed/calendar";
import { isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";
import {
  DEFAULT_AC_POWER_KW,
  DEFAULT_DC_POWER_KW,
  DEFAULT_DEADLINE_LOCAL_HOUR,
  MAX_AC_POWER_KW,
  MAX_DC_POWER_KW,
  MAX_DEADLINE_HOURS,
  MIN_DEFAULT_DEADLINE_LEAD_HOURS,
} from "@/lib/vocabulary/charging-defaults";
import { chargingPlan, type ChargingPrices } from "./charging-recommendation";
import { loadChargingInputs } from "./queries/load-charging-inputs";

/** The next DEFAULT_DEADLINE_LOCAL_HOUR:00 Helsinki time at least MIN_DEFAULT_DEADLINE_LEAD_HOURS after `nowMs`. */
export function defaultDeadline(nowMs: number): number {
  const day = helsinkiDayNumber(nowMs);
  const today = helsinkiTime(day, DEFAULT_DEADLINE_LOCAL_HOUR * 60);
  return today - nowMs >= MIN_DEFAULT_DEADLINE_LEAD_HOURS * HOUR_MS ? today : helsinkiTime(day + 1, DEFAULT_DEADLINE_LOCAL_HOUR * 60);
}

/**
 * Live or cached (≤ 24 h) prices from now on, or null. The shipped recorded day is NOT used: its prices
 * are real but not today's, and a plan priced on them would state a saving nobody can make.
 */
async function pricesFrom(ctx: TenantCtx, nowMs: number): Promise<ChargingPrices | null> {
  try {
    const got = await obtainSpotSeries({ ctx, now: nowMs, allowRecorded: false });
    const slots = got.series.points.filter((p) => p.endMs > nowMs).map((p) => ({ startMs: p.startMs, endMs: p.endMs, centsPerKwh: p.priceWithVat }));
    return slots.length > 0 ? { slots, source: got.series.source } : null;
  } catch (err) {
    if (err instanceof UpstreamUnavailableError) return null;
    throw err;
  }
}

/** Endpoint 15 (SPEC 2.13): when and how to charge one EV. Method: docs/methodology/charging.md. */
export async function getChargingRecommendation({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: ChargingRequest; now?: Date }): Promise<ChargingRecommendation> {
  const nowMs = now.getTime();
  if (input.min_soc_pct > input.target_soc_pct) {
    throw new ValidationError("min_soc_pct is above target_soc_pct", [{ field: "min_soc_pct", message: `must not be above target_soc_pct (${input.target_soc_pct})` }]);
  }
  let deadlineMs = defaultDeadline(nowMs);
  if (input.deadline !== undefined) {
    deadlineMs = Date.parse(input.deadline);
    if (deadlineMs <= nowMs) throw new ValidationError("deadline is not in the future", [{ field: "deadline", message: "must be after now" }]);
    if (deadlineMs - nowMs > MAX_DEADLINE_HOURS * HOUR_MS) {
      throw new ValidationError(`deadline is more than ${MAX_DEADLINE_HOURS} hours ahead`, [
        { field: "deadline", message: `must be at most ${MAX_DEADLINE_HOURS} hours from now` },
      ]);
    }
  }

  const v = oneDevice(await loadChargingInputs({ ctx, deviceIds: [input.device_id], now }), input.device_id);
  const powertrain = normalisePowertrain(v.powertrain);
  if (!isPlugIn(powertrain)) {
    throw new UnprocessableError(
      powertrain === null
        ? `Device ${input.device_id} has no known powertrain, so it is not known to be an electric vehicle; declare powertrain BEV or PHEV in its master data.`
        : `Device ${input.device_id} is not an electric vehicle (powertrain ${powertrain}): only BEV and PHEV are charged.`,
    );
  }
  if (v.soc === null) throw new UnprocessableError(`Device ${input.device_id} has reported no state of charge (soc_percent), so no charge can be planned.`);
  if (v.battery_kwh === null) {
    throw new UnprocessableError(`Device ${input.device_id} has no battery capacity in its master data (battery_kwh), so the energy needed is unknown.`);
  }

  // Observed powers are capped like the overrides: a glitch reading must not plan a 900 kW charge.
  const acPowerKw = input.ac_power_kw ?? Math.min(v.observed_ac_kw ?? DEFAULT_AC_POWER_KW, MAX_AC_POWER_KW);
  const dcPowerKw = input.dc_power_kw ?? Math.min(v.observed_dc_kw ?? DEFAULT_DC_POWER_KW, MAX_DC_POWER_KW);
  return chargingPlan({
    vehicle: { device_id: v.device_id, soc: v.soc, battery_kwh: v.battery_kwh, soh_pct: v.soh_pct },
    options: { targetSocPct: input.target_soc_pct, minSocPct: input.min_soc_pct, deadlineMs, acPowerKw, dcPowerKw },
    prices: await pricesFrom(ctx, nowMs),
    now,
  });
}
