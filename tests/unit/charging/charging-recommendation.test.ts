import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultDeadline } from "@/lib/charging/get-charging-recommendation";
import { chargingPlan, helsinkiClock, type ChargingOptions, type ChargingVehicle } from "@/lib/charging/charging-recommendation";
import type { PriceSlot } from "@/lib/charging/cheapest-window";
import { CHARGING_EFFICIENCY, HIGH_POWER_DC_KW } from "@/lib/vocabulary/charging";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** 2026-11-24 18:00 UTC = 20:00 Helsinki (winter, UTC+2). */
const NOW = Date.UTC(2026, 10, 24, 18, 0);
const DEADLINE = Date.UTC(2026, 10, 25, 5, 0); // 07:00 Helsinki

/** Hourly prices from NOW: evening peak, a night valley at 02:00–05:00 Helsinki (00:00–03:00 UTC). */
const NIGHT = [14, 12, 10, 9, 8, 7, 3, 1, 1.5, 4, 9, 15, 16, 17];
function curve(prices: number[], fromMs = NOW, slotMin = 60): PriceSlot[] {
  return prices.map((c, i) => ({ startMs: fromMs + i * slotMin * MIN, endMs: fromMs + (i + 1) * slotMin * MIN, centsPerKwh: c }));
}

const vehicle = (soc: number, soh: number | null = 90): ChargingVehicle => ({
  device_id: "ev-1",
  soc: { pct: soc, at: new Date(NOW - 10 * MIN) },
  battery_kwh: 64,
  soh_pct: soh,
});
const options = (o: Partial<ChargingOptions> = {}): ChargingOptions => ({ targetSocPct: 80, minSocPct: 20, deadlineMs: DEADLINE, acPowerKw: 11, dcPowerKw: 50, ...o });

/**
 * The brute-force optimum of a plan, independent of cheapest-window.ts: every start minute for the
 * rest of the charge after the immediate part, cost integrated minute by minute, rest ending by the deadline.
 */
function bruteForce(slots: PriceSlot[], { immediateKwh, restKwh, powerKw, deadlineMs }: { immediateKwh: number; restKwh: number; powerKw: number; deadlineMs: number }) {
  const price = (t: number) => slots.find((s) => s.startMs <= t && t < s.endMs)?.centsPerKwh;
  const minutes = (kwh: number) => Math.ceil((kwh / powerKw) * 60);
  const cost = (from: number, mins: number) => {
    let c = 0;
    for (let i = 0; i < mins; i++) c += (powerKw / 60) * price(from + i * MIN)!;
    return c;
  };
  const immMin = minutes(immediateKwh);
  const restMin = minutes(restKwh);
  const immediate = immediateKwh > 0 ? cost(NOW, immMin) : 0;
  let best: { start: number; cents: number } | null = null;
  for (let start = NOW + immMin * MIN; start + restMin * MIN <= Math.min(deadlineMs, slots[slots.length - 1]!.endMs); start += MIN) {
    const c = cost(start, restMin);
    if (best === null || c < best.cents - 1e-9) best = { start, cents: c };
  }
  return best && { start: best.start, totalCents: immediate + best.cents };
}

describe("charging recommendation (pure)", () => {
  it("computes the energy from SOC, capacity × SoH and the AC charging efficiency", () => {
    const plan = chargingPlan({ vehicle: vehicle(30), options: options(), prices: null, now: new Date(NOW) });
    // (80 − 30) % × 64 kWh × 0.90 = 28.8 kWh into the battery; ÷ 0.89 at the plug; at 11 kW.
    expect(plan.energy_to_battery_kwh).toBe(28.8);
    expect(plan.battery_capacity_kwh).toBe(57.6);
    expect(plan.energy_needed_kwh).toBeCloseTo(28.8 / CHARGING_EFFICIENCY.ac, 2);
    expect(plan.charging_duration_minutes).toBeCloseTo((28.8 / CHARGING_EFFICIENCY.ac / 11) * 60, 1);
    expect(plan.charging_mode).toBe("ac");
    expect(plan.charging_power_kw).toBe(11);
  });

  it("uses the nominal capacity when no SoH is known", () => {
    const plan = chargingPlan({ vehicle: vehicle(30, null), options: options(), prices: null, now: new Date(NOW) });
    expect(plan.battery_capacity_kwh).toBe(64);
    expect(plan.energy_to_battery_kwh).toBe(32);
  });

  it("needs no charging at or above the target; costs are zero with prices, unknown without", () => {
    const withPrices = chargingPlan({ vehicle: vehicle(85), options: options(), prices: { slots: curve(NIGHT), source: "test" }, now: new Date(NOW) });
    expect(withPrices).toMatchObject({
      recommendation: "no_charging_needed",
      energy_needed_kwh: 0,
      cheapest_window: null,
      estimated_cost_now_eur: 0,
      estimated_cost_cheapest_eur: 0,
      savings_pct: null,
      current_price_cents_kwh: 14,
    });
    expect(withPrices.reason).toMatch(/\(85 %\) is already at or above the 80 % target/);
    const without = chargingPlan({ vehicle: vehicle(80), options: options(), prices: null, now: new Date(NOW) });
    expect(without).toMatchObject({ recommendation: "no_charging_needed", estimated_cost_now_eur: null, estimated_cost_cheapest_eur: null, current_price_cents_kwh: null });
  });

  it("waits for the night valley and states the saving (charge_later)", () => {
    const slots = curve(NIGHT);
    const plan = chargingPlan({ vehicle: vehicle(50), options: options(), prices: { slots, source: "test" }, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_later");
    expect(plan.immediate_charge).toBeNull();
    const bf = bruteForce(slots, { immediateKwh: 0, restKwh: plan.energy_needed_kwh, powerKw: 11, deadlineMs: DEADLINE })!;
    expect(Date.parse(plan.cheapest_window!.start)).toBeGreaterThanOrEqual(NOW + 6 * HOUR);
    // The plan's cost equals the brute-force optimum (minute grid: within a minute's energy at the dearest price).
    expect(Math.abs(plan.estimated_cost_cheapest_eur! * 100 - bf.totalCents)).toBeLessThan((11 / 60) * 17);
    const now = (plan.estimated_cost_now_eur! - plan.estimated_cost_cheapest_eur!) / plan.estimated_cost_now_eur!;
    expect(plan.savings_pct!).toBeCloseTo(now * 100, 0);
    expect(plan.current_price_cents_kwh).toBe(14);
    // Helsinki wall-clock times in the reason: the window starts in the 02:00 Helsinki hour or later.
    expect(plan.reason).toMatch(/from 2026-11-25 0[2-4]:\d\d to 0[3-6]:\d\d \(Helsinki time\)/);
    expect(plan.reason).toMatch(/% less than charging now/);
  });

  it("charges up to the minimum at once, then the rest in the cheapest window (equal to the brute force)", () => {
    const slots = curve(NIGHT);
    const plan = chargingPlan({ vehicle: vehicle(10), options: options(), prices: { slots, source: "test" }, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_now");
    // (20 − 10) % × 57.6 kWh ÷ 0.89 at the plug, starting now.
    expect(plan.immediate_charge!.energy_kwh).toBeCloseTo(5.76 / CHARGING_EFFICIENCY.ac, 2);
    expect(plan.immediate_charge!.start).toBe(new Date(NOW).toISOString());
    const bf = bruteForce(slots, {
      immediateKwh: plan.immediate_charge!.energy_kwh,
      restKwh: plan.energy_needed_kwh - plan.immediate_charge!.energy_kwh,
      powerKw: 11,
      deadlineMs: DEADLINE,
    })!;
    expect(Math.abs(Date.parse(plan.cheapest_window!.start) - bf.start)).toBeLessThanOrEqual(MIN);
    expect(Math.abs(plan.estimated_cost_cheapest_eur! * 100 - bf.totalCents)).toBeLessThan(2 * (11 / 60) * 17);
    expect(plan.reason).toMatch(/below the 20 % minimum: charge .* at once/);
  });

  it("matches the brute force on random curves, SOCs, minimum levels and deadlines", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5, max: 40 }), { minLength: 8, maxLength: 16 }),
        fc.integer({ min: 0, max: 79 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 1, max: 16 * 4 }),
        fc.constantFrom(11, 47.3, 7),
        (prices, soc, min, deadlineQuarters, dcPowerKw) => {
          const slots = curve(prices);
          const deadlineMs = NOW + deadlineQuarters * 15 * MIN;
          const plan = chargingPlan({ vehicle: vehicle(soc), options: options({ deadlineMs, minSocPct: min, dcPowerKw }), prices: { slots, source: "test" }, now: new Date(NOW) });
          const imm = plan.immediate_charge?.energy_kwh ?? 0;
          const rest = plan.energy_needed_kwh - imm;
          // The brute force gets 0.01 kWh more for each part (the answer's rounding): when it finds a window, the plan must too.
          const bf = rest > 0.005 ? bruteForce(slots, { immediateKwh: imm > 0 ? imm + 0.01 : 0, restKwh: rest + 0.01, powerKw: plan.charging_power_kw, deadlineMs }) : null;
          if (bf !== null) {
            expect(plan.cheapest_window).not.toBeNull();
            // Never dearer than the brute force beyond the minute-grid rounding (two sessions, a minute each at ≤ 40 c).
            expect(plan.estimated_cost_cheapest_eur! * 100).toBeLessThanOrEqual(bf.totalCents + 2 * (plan.charging_power_kw / 60) * 40 + 1);
          }
          // Whenever the known prices cover charging everything from now, the plan has a window (or needs none).
          if (rest > 0.005 && NOW + plan.charging_duration_minutes * MIN + MIN <= slots[slots.length - 1]!.endMs) expect(plan.cheapest_window).not.toBeNull();
          // A plan never ends after the deadline unless the deadline cannot be met at all, and then it starts now.
          if (plan.cheapest_window !== null && Date.parse(plan.cheapest_window.end) > deadlineMs) {
            expect(Date.parse(plan.cheapest_window.start)).toBe(Date.parse(plan.immediate_charge?.end ?? plan.generated_at));
            expect(plan.recommendation).toBe("charge_now");
          }
          // The immediate part and the window add up to the whole charge.
          if (plan.cheapest_window !== null) {
            const windowMs = Date.parse(plan.cheapest_window.end) - Date.parse(plan.cheapest_window.start);
            const immMs = plan.immediate_charge ? Date.parse(plan.immediate_charge.end) - NOW : 0;
            expect(Math.abs(windowMs + immMs - plan.charging_duration_minutes * MIN)).toBeLessThan(MIN / 10 + 2);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a minimum level equal to the target: the immediate charge is the whole plan, priced", () => {
    const plan = chargingPlan({ vehicle: vehicle(10), options: options({ minSocPct: 80 }), prices: { slots: curve(NIGHT), source: "test" }, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_now");
    expect(plan.immediate_charge!.energy_kwh).toBe(plan.energy_needed_kwh);
    expect(plan.cheapest_window).toBeNull();
    expect(plan.estimated_cost_cheapest_eur).not.toBeNull();
    expect(plan.estimated_cost_cheapest_eur).toBe(plan.estimated_cost_now_eur);
    expect(plan.savings_pct).toBe(0);
    expect(plan.reason).toMatch(/That reaches the 80 % target before/);
    expect(plan.reason).not.toMatch(/do not cover/);
  });

  it("a gap in the prices outside the window leaves only the cost of charging now unknown", () => {
    const slots = curve(NIGHT).filter((_, i) => i !== 1); // 19:00–20:00 UTC missing
    const plan = chargingPlan({ vehicle: vehicle(50), options: options(), prices: { slots, source: "test" }, now: new Date(NOW) });
    expect(plan.cheapest_window).not.toBeNull();
    expect(plan.recommendation).toBe("charge_later");
    expect(plan.estimated_cost_cheapest_eur).not.toBeNull();
    expect(plan.estimated_cost_now_eur).toBeNull();
    expect(plan.savings_pct).toBeNull();
  });

  it("never picks DC when it is no faster than AC", () => {
    const plan = chargingPlan({
      vehicle: vehicle(30),
      options: options({ deadlineMs: NOW + 2 * HOUR, dcPowerKw: 7 }),
      prices: { slots: curve(NIGHT), source: "test" },
      now: new Date(NOW),
    });
    expect(plan.charging_mode).toBe("ac");
    expect(plan.charging_power_kw).toBe(11);
    expect(plan.recommendation).toBe("charge_now");
    expect(plan.reason).toMatch(/not reached|more than the 2 h left/);
  });

  it("at negative prices says the energy pays instead of a saving above 100 %", () => {
    const plan = chargingPlan({ vehicle: vehicle(60), options: options(), prices: { slots: curve([10, 10, -8, -8, -8, 10, 10, 10]), source: "test" }, now: new Date(NOW) });
    expect(plan.estimated_cost_cheapest_eur!).toBeLessThan(0);
    expect(plan.savings_pct!).toBeGreaterThan(100);
    expect(plan.reason).toMatch(/the energy pays [0-9.]+ €/);
  });

  it("says how old the state of charge is when it is older than a day", () => {
    const old: ChargingVehicle = { ...vehicle(50), soc: { pct: 50, at: new Date(NOW - 50 * HOUR) } };
    expect(chargingPlan({ vehicle: old, options: options(), prices: null, now: new Date(NOW) }).reason).toMatch(/last reported 50 h ago/);
    expect(chargingPlan({ vehicle: vehicle(50), options: options(), prices: null, now: new Date(NOW) }).reason).not.toMatch(/last reported/);
  });

  it("switches to DC when AC cannot meet the deadline, and says why", () => {
    // 28.8 kWh ÷ 0.89 at 11 kW ≈ 2 h 57 min; the deadline is in 2 h.
    const plan = chargingPlan({ vehicle: vehicle(30), options: options({ deadlineMs: NOW + 2 * HOUR }), prices: { slots: curve(NIGHT), source: "test" }, now: new Date(NOW) });
    expect(plan.charging_mode).toBe("dc");
    expect(plan.charging_power_kw).toBe(50);
    expect(plan.energy_needed_kwh).toBeCloseTo(28.8 / CHARGING_EFFICIENCY.dc, 2);
    expect(plan.reason).toMatch(/more than the 2 h left, so DC it is/);
    // 50 kW is not the high-power DC charging (above 100 kW) Geotab found to wear batteries about twice as fast.
    expect(plan.reason).not.toMatch(/wear|twice as fast/);
  });

  it("warns of battery wear only for DC above 100 kW, the power Geotab's finding is about", () => {
    const at = (dcPowerKw: number) =>
      chargingPlan({ vehicle: vehicle(30), options: options({ deadlineMs: NOW + 2 * HOUR, dcPowerKw }), prices: { slots: curve(NIGHT), source: "test" }, now: new Date(NOW) })
        .reason;
    expect(HIGH_POWER_DC_KW).toBe(100);
    expect(at(100)).not.toMatch(/wear/);
    expect(at(150)).toMatch(/DC charging above 100 kW wears the battery about twice as fast as AC/);
  });

  it("charges now when even DC cannot meet the deadline", () => {
    const plan = chargingPlan({ vehicle: vehicle(10), options: options({ deadlineMs: NOW + 20 * MIN }), prices: { slots: curve(NIGHT), source: "test" }, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_now");
    expect(plan.charging_mode).toBe("dc");
    expect(plan.estimated_cost_cheapest_eur).toBe(plan.estimated_cost_now_eur);
    expect(plan.savings_pct).toBe(0);
    expect(plan.reason).toMatch(/more than the 20 min left/);
  });

  it("without prices: no economic optimum is claimed; the charge starts at the latest safe start, not at the evening peak", () => {
    // 20:00 Helsinki, 50 % → 80 %: 17.28 kWh into the battery, 19.42 kWh at the plug, 1 h 46 min at 11 kW AC;
    // margin max(60 min, 25 % of 106 min) = 60 min before the 07:00 deadline → start by 04:14 Helsinki.
    const plan = chargingPlan({ vehicle: vehicle(50), options: options(), prices: null, now: new Date(NOW) });
    const durationMs = Math.ceil((17.28 / CHARGING_EFFICIENCY.ac / 11) * HOUR);
    expect(plan).toMatchObject({
      recommendation: "charge_later",
      cheapest_window: null,
      current_price_cents_kwh: null,
      estimated_cost_now_eur: null,
      estimated_cost_cheapest_eur: null,
      savings_pct: null,
      price_source: null,
    });
    // Rounded down to the whole minute (a clean time, and only ever more margin).
    expect(Date.parse(plan.latest_safe_start!)).toBe(Math.floor((DEADLINE - HOUR - durationMs) / MIN) * MIN);
    expect(plan.latest_safe_start).toBe("2026-11-25T02:14:00.000Z");
    expect(plan.reason).toMatch(/No live or recently cached spot prices are available/);
    expect(plan.reason).toMatch(/not a price-optimised window/);
    expect(plan.reason).toMatch(/start charging by (2026-11-25 )?04:14 \(Helsinki time\) at the latest/);
    expect(plan.reason).toMatch(/reaches 80 % 1 h before the (2026-11-25 )?07:00 deadline/);
    expect(plan.reason).not.toMatch(/charge .* now/i);
  });

  it("without prices, the margin grows with the charge: 25 % of a long charging time", () => {
    // 10 % → 80 % at 7.4 kW: 40.32 kWh ÷ 0.89 = 45.3 kWh, 6 h 7 min; immediate 10 → 20 % at once first.
    const plan = chargingPlan({ vehicle: vehicle(10), options: options({ acPowerKw: 7.4, deadlineMs: DEADLINE + 6 * HOUR }), prices: null, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_now"); // the part up to the minimum, at once
    expect(plan.immediate_charge).not.toBeNull();
    const totalMs = Math.ceil((40.32 / CHARGING_EFFICIENCY.ac / 7.4) * HOUR);
    const immediateMs = Math.ceil((5.76 / CHARGING_EFFICIENCY.ac / 7.4) * HOUR);
    const restMs = totalMs - immediateMs; // 5 h 15 min: the margin is 25 % of it, 1 h 19 min, more than the hour
    expect(Date.parse(plan.immediate_charge!.end)).toBe(NOW + immediateMs);
    expect(Date.parse(plan.latest_safe_start!)).toBe(Math.floor((DEADLINE + 6 * HOUR - 0.25 * restMs - restMs) / MIN) * MIN);
    expect(plan.reason).toMatch(/below the 20 % minimum: charge .* at once/);
  });

  it("without prices and no room for the margin: charge now, and say how little is to spare", () => {
    const plan = chargingPlan({ vehicle: vehicle(50), options: options({ deadlineMs: NOW + 150 * MIN }), prices: null, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_now");
    expect(plan.latest_safe_start).toBeNull();
    expect(plan.reason).toMatch(/No live or recently cached spot prices/);
    expect(plan.reason).toMatch(/only 44 min to spare/);
  });

  it("with prices the plan is the cheapest window and names no latest safe start", () => {
    const plan = chargingPlan({ vehicle: vehicle(50), options: options(), prices: { slots: curve(NIGHT), source: "test" }, now: new Date(NOW) });
    expect(plan.cheapest_window).not.toBeNull();
    expect(plan.latest_safe_start).toBeNull();
  });

  it("when the known prices end too soon: no window, the latest safe start, and says until when they are known", () => {
    const plan = chargingPlan({ vehicle: vehicle(30), options: options(), prices: { slots: curve([5, 6]), source: "test" }, now: new Date(NOW) });
    expect(plan.cheapest_window).toBeNull();
    expect(plan.estimated_cost_now_eur).toBeNull();
    expect(plan.recommendation).toBe("charge_later");
    expect(plan.latest_safe_start).not.toBeNull();
    expect(plan.reason).toMatch(/known spot prices \(until 22:00\) do not cover/);
  });

  it("says when the deadline lies beyond the published prices", () => {
    const plan = chargingPlan({ vehicle: vehicle(60), options: options(), prices: { slots: curve([9, 8, 2, 7]), source: "test" }, now: new Date(NOW) });
    expect(plan.recommendation).toBe("charge_later");
    expect(plan.reason).toMatch(/Prices after 00:00 are not published yet|Prices after 2026-11-25 00:00 are not published yet/);
  });

  it("formats Helsinki times across the DST change and the day boundary", () => {
    expect(helsinkiClock(Date.UTC(2026, 6, 1, 21, 30), Date.UTC(2026, 6, 1, 12))).toBe("2026-07-02 00:30");
    expect(helsinkiClock(Date.UTC(2026, 11, 1, 21, 30), Date.UTC(2026, 11, 1, 12))).toBe("23:30");
  });

  it("defaults the deadline to the next 07:00 Helsinki time at least an hour away", () => {
    expect(defaultDeadline(NOW)).toBe(DEADLINE);
    // 06:30 Helsinki (04:30 UTC): today's 07:00 is too close, so tomorrow's.
    expect(defaultDeadline(Date.UTC(2026, 10, 25, 4, 30))).toBe(Date.UTC(2026, 10, 26, 5, 0));
    // Summer (UTC+3): 07:00 Helsinki is 04:00 UTC.
    expect(defaultDeadline(Date.UTC(2026, 6, 1, 12))).toBe(Date.UTC(2026, 6, 2, 4, 0));
  });
});
