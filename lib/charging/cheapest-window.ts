/**
 * The cheapest contiguous charging window (endpoint 15's core, pure): charging at a constant power
 * from a start time until `energyKwh` is delivered, the whole session inside [earliest, deadline],
 * priced slot by slot on the spot-price curve. Candidate starts are `earliest` and every slot start
 * after it: between two slot boundaries the cost is linear in the start time, so a minimum lies on one
 * of them (or at `earliest`, or where the session's end meets a boundary — also checked).
 */

export interface PriceSlot {
  /** Epoch ms. Slots are contiguous and sorted; the curve ends at the last slot's end. */
  startMs: number;
  endMs: number;
  centsPerKwh: number;
}

interface ChargingWindow {
  startMs: number;
  endMs: number;
  /** Cost of the session in cents (energy × price over the slots it covers). */
  costCents: number;
  /** Energy-weighted mean price over the session, c/kWh. */
  avgCentsPerKwh: number;
}

/** Cost in cents of charging at `powerKw` from startMs to endMs, or null when the curve does not cover it. */
export function sessionCost(slots: readonly PriceSlot[], startMs: number, endMs: number, powerKw: number): number | null {
  if (endMs <= startMs) return 0;
  let covered = 0;
  let cents = 0;
  for (const s of slots) {
    const from = Math.max(s.startMs, startMs);
    const to = Math.min(s.endMs, endMs);
    if (to <= from) continue;
    const hours = (to - from) / 3_600_000;
    cents += hours * powerKw * s.centsPerKwh;
    covered += to - from;
  }
  return covered + 1 < endMs - startMs ? null : cents;
}

/**
 * The cheapest window, or null when no window of the needed length fits between `earliestMs` and
 * `deadlineMs` on the known curve. Ties go to the earliest start (the car is ready sooner).
 */
export function cheapestWindow({
  slots,
  earliestMs,
  deadlineMs,
  energyKwh,
  powerKw,
  durationMs: givenDurationMs,
}: {
  slots: readonly PriceSlot[];
  earliestMs: number;
  deadlineMs: number;
  energyKwh: number;
  powerKw: number;
  /** The session's length when the caller has already fixed it (a plan split into parts); else energy ÷ power. */
  durationMs?: number;
}): ChargingWindow | null {
  if (!(energyKwh > 0) || !(powerKw > 0) || slots.length === 0) return null;
  // Rounded up to the millisecond, after forgiving float noise (11 kWh / 3.7 kW must not gain a stray ms).
  const durationMs = givenDurationMs ?? Math.ceil((energyKwh / powerKw) * 3_600_000 - 1e-6);
  if (!(durationMs > 0)) return null;
  const curveEnd = slots[slots.length - 1]!.endMs;
  const latestStart = Math.min(deadlineMs, curveEnd) - durationMs;
  if (latestStart < earliestMs) return null;
  const candidates = new Set<number>([earliestMs, latestStart]);
  for (const s of slots) {
    // A session starting on a slot boundary, or ending on one.
    for (const t of [s.startMs, s.endMs - durationMs, s.startMs - durationMs]) if (t >= earliestMs && t <= latestStart) candidates.add(t);
  }
  let best: ChargingWindow | null = null;
  for (const start of [...candidates].sort((a, b) => a - b)) {
    const cost = sessionCost(slots, start, start + durationMs, powerKw);
    if (cost === null) continue;
    if (best === null || cost < best.costCents - 1e-9) {
      best = { startMs: start, endMs: start + durationMs, costCents: cost, avgCentsPerKwh: cost / (powerKw * (durationMs / 3_600_000)) };
    }
  }
  return best;
}
