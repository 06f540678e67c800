import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { Db } from "@/lib/db/client";
import type { Logger } from "@/lib/log/logger";
import { createTenant } from "@/lib/tenants/create-tenant";
import { DAY_MS } from "../calendar";
import { loadScenarioFleet } from "../scenarios/load-scenario-fleet";
import { generateScenarioFleet } from "../scenarios/scenario-fleet";
import { seedSandbox } from "../seed-sandbox";
import { calibrateTenant, type TenantCalibration } from "./score-distribution";

interface CalibrationRun {
  reports: TenantCalibration[];
  /** Wall-clock milliseconds of each step, for the reviewer (seeding dominates). */
  timings: { seedSandboxMs: number; loadScenarioMs: number; scoreMs: number };
}

/**
 * Seeds the sandbox (forced, anchored at `now`) and loads the scenario fleet into a fresh tenant of
 * the same database, then reports every score's distribution for both. The scenario fleet is anchored
 * at the start of the UTC day (its dense window ends there) and scored as of that instant, so its
 * data are as fresh as in the scenario suite.
 */
export async function runCalibration({ db, log, now = new Date() }: { db: Db; log: Logger; now?: Date }): Promise<CalibrationRun> {
  let t = Date.now();
  await seedSandbox({ db, now, force: true });
  const seedSandboxMs = Date.now() - t;

  t = Date.now();
  const scenarioAnchor = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const fleet = generateScenarioFleet({ anchor: scenarioAnchor });
  const tenant = await createTenant({ ctx: { db }, input: { name: "Scenario fleet (calibration)" } });
  const scenarioCtx = { db, tenantId: tenant.tenantId, isSandbox: false, log };
  await loadScenarioFleet({ ctx: scenarioCtx, fleet });
  const loadScenarioMs = Date.now() - t;

  t = Date.now();
  const sandbox = await calibrateTenant({ ctx: { db, tenantId: SANDBOX_TENANT_ID, isSandbox: true, log }, label: "Sandbox fleet", now });
  const scenario = await calibrateTenant({ ctx: scenarioCtx, label: "Scenario fleet", now: fleet.anchor, periodDays: 7 });
  return { reports: [sandbox, scenario], timings: { seedSandboxMs, loadScenarioMs, scoreMs: Date.now() - t } };
}
