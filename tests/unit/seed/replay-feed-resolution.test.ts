import { describe, expect, it } from "vitest";
import { replayFeed } from "@/lib/seed/replay-feed";
import type { OemRecord } from "@/lib/seed/simulate-vehicle";

/**
 * The sandbox replay mirrors the store's alert resolution (lib/ingest/store-batch.ts resolveAlerts, tested
 * through the real ingest in tests/api/alert-lifecycle.test.ts): a one-reading odometer glitch's WARNING is
 * resolved by fdp:odometer_integrity when a later batch is back at the level, and kept.
 */
const VIN = "WVWZZZ1KZREPLAY001";
const H = 3_600_000;
const T0 = Date.parse("2026-11-20T08:00:00Z");
const odo = (ms: number, km: number): OemRecord => ({ vin: VIN, timestamp: new Date(ms).toISOString(), speed_kmh: 0, odometer_km: km });

describe("replayFeed: a contradicted odometer glitch", () => {
  it("resolves the glitch's WARNING at the next batch's arrival, with the reason, and keeps it", () => {
    const records = [odo(T0, 10_000), odo(T0 + 10 * 60_000, 10_003), odo(T0 + H, 9_000), odo(T0 + 2 * H, 10_010)];
    const replay = replayFeed({
      tenantId: "t",
      deviceId: `oem-${VIN}`,
      records,
      master: { powertrain: null, powertrainSource: null, batteryKwh: null, masterDataAt: null },
      latencyMs: 7_000,
      anchorMs: T0 + 3 * H,
      acknowledge: () => null,
    });
    const byKey = (k: string) => replay.alerts.filter((a) => a.draft.dedupeKey === k);
    const [warning] = byKey("odometer_integrity:rollback");
    expect(byKey("odometer_integrity:rollback")).toHaveLength(1);
    expect(warning?.evidence.severity).toBe("WARNING");
    expect(warning?.acknowledgedBy).toBe("fdp:odometer_integrity");
    expect(warning?.acknowledgedAt).toEqual(new Date(T0 + 2 * H + 7_000));
    expect(warning?.evidence.occurrences).toBe(1);
    expect(warning?.evidence.technicalData).toMatchObject({
      rule: "rollback",
      reading_km: 9_000,
      resolution: { resolved_by: "fdp:odometer_integrity", contradicting_km: 10_010, resolved_at: new Date(T0 + 2 * H + 7_000).toISOString() },
    });
    expect(byKey("odometer_integrity:outlier").map((a) => [a.evidence.severity, a.acknowledgedAt])).toEqual([["INFO", null]]);
    expect(byKey("odometer_integrity:jump")).toEqual([]);
  });
});
