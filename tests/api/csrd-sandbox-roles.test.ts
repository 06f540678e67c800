import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { seedSandbox } from "@/lib/seed/seed-sandbox";
import { csrdReportSchema } from "@/lib/schemas/reports-csrd";
import { emissionsReportSchema } from "@/lib/schemas/reports-emissions";
import { updateTenant } from "@/lib/tenants/update-tenant";
import { REPORTING_ROLES } from "@/lib/vocabulary/reporting-role";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * The sandbox's synthetic fleet (every vehicle on a lease, BEVs and fuel cars) reported by the CSRD
 * report in both reporting roles: each must reconcile with the sandbox's emissions report of the same
 * dates to the gram, the operator with category 13 not reported, the lessor with it in the total. The
 * figures are printed (the release note quotes them).
 */
let tdb: TestDatabase;
let app: RouteServer;
const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const START = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * DAY).toISOString().slice(0, 10);
const END = today;
const g = (t: number | null) => Math.round((t ?? NaN) * 1e6);

beforeAll(async () => {
  tdb = await createTestDatabase();
  await seedSandbox({ db: tdb.handle.db });
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
}, 300_000);

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

describe("the sandbox's CSRD report in both reporting roles", () => {
  it("reconciles with the sandbox's emissions report of the same dates, to the gram, as operator and as lessor", async () => {
    const er = emissionsReportSchema.parse(await (await app.fetch(`/api/v1/reports/emissions?start_date=${START}&end_date=${END}`, { key: SANDBOX_KEY })).json());
    expect(er.total_co2_kg_estimate).toBeGreaterThan(0);
    const totalG = Math.round(er.total_co2_kg_estimate * 1000);
    const lines: string[] = [];
    const byRole: Record<string, ReturnType<typeof csrdReportSchema.parse>> = {};
    try {
      for (const role of REPORTING_ROLES) {
        await updateTenant({ ctx: { db: tdb.handle.db }, input: { tenantId: SANDBOX_TENANT_ID, reportingRole: role } });
        const res = await app.fetch(`/api/v1/reports/csrd/generate?start_date=${START}&end_date=${END}&format=json`, { method: "POST", key: SANDBOX_KEY });
        expect(res.status, await res.clone().text()).toBe(200);
        const r = csrdReportSchema.parse(await res.json());
        byRole[role] = r;
        const e = r.emissions;
        const cat13 = e.scope_3_categories.cat_13_downstream_leased_assets;
        expect(r.reporting_role).toBe(role);
        expect(g(e.scope_1.value) + g(e.scope_2_location_based.value) + g(e.scope_3.value)).toBe(totalG);
        expect(g(e.total_location_based.value)).toBe(totalG);
        expect(g(e.scope_3.value)).toBe(g(e.scope_3_categories.cat_3_fuel_and_energy_related.value) + (role === "lessor" ? g(cat13.value) : 0));
        if (role === "operator") expect(cat13).toMatchObject({ value: null, reported: false, included_in_total: false });
        else expect(cat13).toMatchObject({ reported: true, included_in_total: true });
        const row = (id: string) => Math.round(er.vehicles.find((v) => v.device_id === id)!.co2_kg * 1000);
        for (const v of e.leased_vehicles) expect(g(v.cat_13) + g(v.own_operation)).toBe(row(v.device_id));
        const t3 = (x: number | null) => (x === null ? "null (not reported)" : `${x.toFixed(6)} t`);
        lines.push(
          `[sandbox CSRD ${START}..${END}] role=${role}: scope 1 ${t3(e.scope_1.value)}, scope 2 location ${t3(e.scope_2_location_based.value)}, scope 3 cat 3 ${t3(e.scope_3_categories.cat_3_fuel_and_energy_related.value)}, cat 13 ${t3(cat13.value)}, scope 3 ${t3(e.scope_3.value)}, total ${t3(e.total_location_based.value)}; emissions report total ${er.total_co2_kg_estimate} kg; leased vehicles ${e.leased_vehicles.length} of ${r.fleet_summary.total_vehicles}`,
        );
      }
    } finally {
      await updateTenant({ ctx: { db: tdb.handle.db }, input: { tenantId: SANDBOX_TENANT_ID, reportingRole: "operator" } });
    }
    // Every sandbox vehicle is leased: the lessor moves emissions out of Scope 1 and 2 into category 13, the total stays.
    expect(g(byRole.lessor!.emissions.scope_3_categories.cat_13_downstream_leased_assets.value)).toBeGreaterThan(0);
    expect(g(byRole.lessor!.emissions.scope_1.value)).toBeLessThan(g(byRole.operator!.emissions.scope_1.value));
    for (const line of lines) console.info(line);
  }, 120_000);
});
