import { describe, expect, it } from "vitest";
import { rootLogger } from "@/lib/log/logger";
import { runCalibration } from "@/lib/seed/calibration/run-calibration";
import {
  CALIBRATED_DISTRIBUTIONS,
  CALIBRATED_FLEET_SCORES,
  CALIBRATED_GRADES,
  distributionOf,
  formatCalibration,
  formatDevices,
  quantile,
} from "@/lib/seed/calibration/score-distribution";
import { generateScenarioFleet } from "@/lib/seed/scenarios/scenario-fleet";
import { createTestDatabase } from "../helpers/databases";

/**
 * `npm run calibrate`'s core (runCalibration) on a fresh migrated database (Postgres: the calibration
 * reads through the same verbs on either driver, and the drivers are compared elsewhere): it must report
 * every score for both fleets, with every device scored, and its text must show each of them.
 */
describe("calibration", () => {
  it("quantiles interpolate linearly and ignore nulls", () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([10, 20, 30, 40], 0.25)).toBe(17.5);
    expect(distributionOf([3, null, 1, 2, undefined])).toEqual({ n: 3, nulls: 2, min: 1, p25: 1.5, median: 2, p75: 2.5, max: 3 });
  });

  it("reports the distribution of every score for the sandbox and the scenario fleet", async () => {
    const tdb = await createTestDatabase("postgres");
    const { handle } = tdb;
    try {
      const now = new Date("2026-01-15T09:30:00Z");
      const run = await runCalibration({ db: handle.db, log: rootLogger(), now });
      const text = formatCalibration(run.reports);
      console.info(text);
      expect(run.reports.map((r) => r.label)).toEqual(["Sandbox fleet", "Scenario fleet"]);
      const scenarioSize = generateScenarioFleet({ anchor: now }).vehicles.length;
      const [sandbox, scenario] = run.reports;
      expect(sandbox?.deviceCount).toBeGreaterThanOrEqual(40);
      expect(scenario?.deviceCount).toBe(scenarioSize);
      for (const r of run.reports) {
        // Every device scored by every verb: no errors, and each per-device score has a value for every device it applies to.
        expect(r.errors, r.label).toEqual({ tas: 0, scores_batch: 0 });
        for (const name of CALIBRATED_DISTRIBUTIONS) {
          const d = r.distributions[name];
          expect(d, `${r.label} ${name}`).toBeDefined();
          expect((d?.n ?? 0) + (d?.nulls ?? 0), `${r.label} ${name}`).toBe(r.deviceCount);
          expect(d?.n, `${r.label} ${name}: no device has a value`).toBeGreaterThan(0);
          expect(text).toContain(name);
        }
        for (const name of [...CALIBRATED_DISTRIBUTIONS].filter((n) => n.startsWith("tas.") || n.startsWith("vehicle_health") || n.includes(".device."))) {
          expect(r.distributions[name]?.nulls, `${r.label} ${name}: every device has one`).toBe(0);
        }
        for (const name of CALIBRATED_GRADES) {
          const counts = r.grades[name] ?? {};
          expect(
            Object.values(counts).reduce((a, b) => a + b, 0),
            `${r.label} ${name}`,
          ).toBe(r.deviceCount);
          expect(counts.error, `${r.label} ${name}`).toBeUndefined();
          expect(text).toContain(name);
        }
        for (const name of CALIBRATED_FLEET_SCORES) {
          expect(typeof r.fleet[name], `${r.label} ${name}`).toBe("number");
          expect(text).toContain(name);
        }
      }
      // One line per device, naming it, in the device listing.
      for (const r of run.reports) {
        expect(r.devices.map((d) => d.device_id)).toHaveLength(r.deviceCount);
        const listing = formatDevices(r);
        for (const d of r.devices) expect(listing).toContain(d.device_id);
      }
      // The scenario fleet holds two knockout stories by construction (degraded battery, clocked odometer): F must appear.
      expect(scenario?.grades["tas.tas_grade"]?.F ?? 0).toBeGreaterThanOrEqual(2);
    } finally {
      await tdb.dispose();
    }
  }, 180_000);
});
