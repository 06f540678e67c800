import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cheapestWindow, sessionCost, type PriceSlot } from "@/lib/charging/cheapest-window";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 24, 0, 0);

function curve(prices: number[], slotMin = 15): PriceSlot[] {
  return prices.map((c, i) => ({ startMs: T0 + i * slotMin * MIN, endMs: T0 + (i + 1) * slotMin * MIN, centsPerKwh: c }));
}

/** The brute-force optimum: every start on a one-minute grid, cost integrated minute by minute. */
function bruteForce(slots: PriceSlot[], earliestMs: number, deadlineMs: number, energyKwh: number, powerKw: number) {
  const duration = Math.ceil((energyKwh / powerKw) * 60) * MIN;
  let best: { start: number; cost: number } | null = null;
  for (let start = earliestMs; start + duration <= Math.min(deadlineMs, slots[slots.length - 1]!.endMs); start += MIN) {
    let cost = 0;
    for (let t = start; t < start + duration; t += MIN) {
      const slot = slots.find((s) => s.startMs <= t && t < s.endMs)!;
      cost += (powerKw / 60) * slot.centsPerKwh;
    }
    if (best === null || cost < best.cost - 1e-9) best = { start, cost };
  }
  return best;
}

describe("cheapest charging window", () => {
  it("finds the night valley of a constructed curve", () => {
    // 24 h of hourly prices: expensive evening, cheap 02:00–05:00.
    const prices = [9, 8, 2, 1, 1.5, 3, 6, 10, 12, 11, 9, 8, 7, 7, 8, 9, 11, 14, 16, 15, 12, 10, 9, 8];
    const slots = curve(prices, 60);
    const w = cheapestWindow({ slots, earliestMs: T0, deadlineMs: T0 + 24 * 60 * MIN, energyKwh: 33, powerKw: 11 });
    expect(w).toMatchObject({ startMs: T0 + 2 * 60 * MIN, endMs: T0 + 5 * 60 * MIN });
    expect(w!.costCents).toBeCloseTo(11 * (2 + 1 + 1.5), 9);
    expect(w!.avgCentsPerKwh).toBeCloseTo(1.5, 9);
  });

  it("is null when the session does not fit before the deadline or the curve ends", () => {
    const slots = curve([5, 5, 5, 5], 15);
    expect(cheapestWindow({ slots, earliestMs: T0, deadlineMs: T0 + 30 * MIN, energyKwh: 11, powerKw: 11 })).toBeNull();
    expect(cheapestWindow({ slots, earliestMs: T0, deadlineMs: T0 + 600 * MIN, energyKwh: 22, powerKw: 11 })).toBeNull();
  });

  it("prices a partial slot by its share: sessionCost integrates the covered time", () => {
    const slots = curve([10, 20], 60);
    expect(sessionCost(slots, T0 + 30 * MIN, T0 + 90 * MIN, 10)).toBeCloseTo(5 * 10 + 5 * 20, 9);
    expect(sessionCost(slots, T0 + 90 * MIN, T0 + 150 * MIN, 10)).toBeNull();
  });

  it("equals the brute-force optimum on random 15-minute curves, starts and deadlines", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: -50, max: 400 }).map((x) => x / 10),
          { minLength: 8, maxLength: 48 },
        ),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 60, max: 720 }),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(3.7, 7.4, 11, 22, 50),
        (prices, earliestMin, spanMin, energy, power) => {
          const slots = curve(prices, 15);
          const earliest = T0 + earliestMin * MIN;
          const deadline = earliest + spanMin * MIN;
          const w = cheapestWindow({ slots, earliestMs: earliest, deadlineMs: deadline, energyKwh: energy, powerKw: power });
          // The brute force works on whole minutes: compare sessions of a whole number of minutes.
          const wholeMinutes = Math.abs((energy / power) * 60 - Math.round((energy / power) * 60)) < 1e-9;
          if (!wholeMinutes) return;
          const b = bruteForce(slots, earliest, deadline, energy, power);
          if (b === null) expect(w).toBeNull();
          else expect(w!.costCents).toBeCloseTo(b.cost, 6);
        },
      ),
      { numRuns: 300 },
    );
  });
});
