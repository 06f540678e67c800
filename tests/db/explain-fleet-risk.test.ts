import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainFleetRisk, FLEET_STATEMENT_PARTS } from "@/bench/explain-fleet-risk";
import { currentUtcHour, seedLargeTenant } from "@/bench/seed-large-tenant";
import { SPINE } from "@/bench/lib/plan-parts";
import { rootLogger } from "@/lib/log/logger";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { createTenant } from "@/lib/tenants/create-tenant";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * bench/explain-fleet-risk.ts on a small `bench:seed` tenant (rollups built by the seed): it explains
 * the statement the verb really sends, and its parts account for the whole plan.
 */
let database: TestDatabase;
let tenantId: string;

beforeAll(async () => {
  database = await createTestDatabase("postgres");
  const db = database.handle.db;
  tenantId = (await createTenant({ ctx: { db }, input: { name: "bench large tenant (explain)" } })).tenantId;
  await seedLargeTenant({ db, tenantId, options: { devices: 30, days: 40, readingsPerDay: 3, anchor: currentUtcHour(), chunkDays: 10 } });
}, 120_000);

afterAll(async () => {
  await database?.dispose();
});

describe("explain-fleet-risk", () => {
  it("explains the verb's own statement: one row per device, the verb's score, parts that add up to the plan", async () => {
    const now = new Date();
    const e = await explainFleetRisk({ url: database.url!, tenantId, periodDays: 30, now });
    expect(e.devices).toBe(30);
    const verb = await getFleetRisk({ ctx: { db: database.handle.db, tenantId, isSandbox: false, log: rootLogger() }, input: { period: 30 }, now });
    expect(e.fleetRiskScore).toBe(verb.fleet_risk_score);

    const names = [...e.parts.keys()];
    for (const name of names) expect(Object.keys(FLEET_STATEMENT_PARTS.labels)).toContain(name);
    // The pipeline over the raw readings, the harsh events, the rollups and the spine are always read.
    for (const name of [SPINE, "bac", "brh", "rollups"]) expect(names).toContain(name);
    for (const p of e.parts.values()) {
      expect(p.ms).toBeGreaterThanOrEqual(0);
      expect(p.nodes).toBeGreaterThan(0);
    }
    // Every node's own time, counted once: the parts add up to the root's total time (rounding aside:
    // Postgres prints a loop's average to the microsecond).
    const sum = [...e.parts.values()].reduce((s, p) => s + p.ms, 0);
    expect(Math.abs(sum - e.rootMs)).toBeLessThanOrEqual(0.02 * e.rootMs + 0.5);
    expect(e.rootMs).toBeLessThanOrEqual(e.executionMsTimed + 0.5);
  });

  it("applies planner settings to the explained statement's connection, and says which are in effect", async () => {
    const plain = await explainFleetRisk({ url: database.url!, tenantId, periodDays: 30 });
    expect(plain.plannerSettings.enable_memoize).toBeUndefined();
    expect(plain.plannerSettings.jit).toBe("off"); // the app's connection setting (lib/db/client.ts)
    const variant = await explainFleetRisk({ url: database.url!, tenantId, periodDays: 30, settings: [{ name: "enable_memoize", value: "off" }] });
    expect(variant.plannerSettings.enable_memoize).toBe("off");
    expect(variant.devices).toBe(30);
    expect(variant.fleetRiskScore).toBe(plain.fleetRiskScore);
  });
});
