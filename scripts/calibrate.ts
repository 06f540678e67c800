/**
 * Prints the distribution of every score (TAS and its pillars, vehicle health, EOL grade, battery
 * snapshot, per-device and fleet-level fleet risk and green fleet) for the sandbox fleet and for the
 * scenario fleet, so a reviewer sees whether the A–F bands are used sensibly (issue 8).
 *
 *   npm run calibrate                # distributions
 *   npm run calibrate -- --devices   # and one line per device (which vehicle got which grade)
 *
 * Runs on a throw-away embedded PGlite in a temporary directory: nothing outside it is touched.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { createLogger } from "@/lib/log/logger";
import { formatCalibration, formatDevices } from "@/lib/seed/calibration/score-distribution";
import { runCalibration } from "@/lib/seed/calibration/run-calibration";

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fdp-calibrate-"));
  const handle = await openDatabase({ dataDir, url: null });
  try {
    await migrateWithPartitions(handle);
    const run = await runCalibration({ db: handle.db, log: createLogger({ level: "warn" }) });
    console.log(formatCalibration(run.reports));
    if (process.argv.slice(2).includes("--devices")) for (const r of run.reports) console.log(`${formatDevices(r)}\n`);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`timings: sandbox seed ${s(run.timings.seedSandboxMs)}, scenario load ${s(run.timings.loadScenarioMs)}, scoring ${s(run.timings.scoreMs)}`);
  } finally {
    await handle.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
