import { and, eq, gte, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { drivingEvents } from "@/lib/db/schema";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { computeTas } from "@/lib/scores/tas";
import { tasScoreSchema } from "@/lib/schemas/scores-device";
import { FLEET_PLAN } from "@/lib/seed/fleet-plan";
import { csrdReportSchema } from "@/lib/schemas/reports-csrd";
import { emissionsReportSchema } from "@/lib/schemas/reports-emissions";
import { HARSH_EVENT_KINDS } from "@/lib/vocabulary/driving-events";
import { updateTenant } from "@/lib/tenants/update-tenant";
import { REPORTING_ROLES } from "@/lib/vocabulary/reporting-role";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/databases";
import { everyAlert } from "../helpers/every-alert";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * The sandbox's synthetic fleet through the API, on one seed of the sandbox (a seed is the slowest part of
 * a test file, so the files that read the sandbox share this one):
 * - its heavy-footed drivers' harsh events and overspeed in the Total Asset Score (driving events from
 *   the other side: tests/api/driving-events.test.ts);
 * - the CSRD report in both reporting roles (every vehicle on a lease, BEVs and fuel cars): each must
 *   reconcile with the sandbox's emissions report of the same dates to the gram, the operator with
 *   category 13 not reported, the lessor with it in the total. The figures are printed (the release note
 *   quotes them).
 */
let tdb: TestDatabase;
let app: RouteServer;
const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const START = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * DAY).toISOString().slice(0, 10);
const END = today;
const g = (t: number | null) => Math.round((t ?? NaN) * 1e6);

async function usagePillar(deviceId: string, key: string) {
  const res = await app.fetch(`/api/v1/tas/${deviceId}`, { key });
  expect(res.status).toBe(200);
  return tasScoreSchema.parse(await res.json()).pillars.usage_behaviour;
}

beforeAll(async () => {
  tdb = await createSeededTestDatabase();
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
}, 300_000);

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

describe("the sandbox's heavy-footed drivers", () => {
  const heavy = FLEET_PLAN.flatMap((p, i) => (p.heavyFoot ? [`sbx-${String(i + 1).padStart(3, "0")}`] : []));

  it("report harsh events (non-null, counted from driving_events) and overspeed counted from the same alerts GET /alerts shows", async () => {
    expect(heavy).toEqual(["sbx-001", "sbx-010", "sbx-035"]);
    const now = new Date();
    const since = new Date(now.getTime() - 90 * DAY);
    // The whole list, not its newest 200.
    const alerts = await everyAlert(async (query) => {
      const res = await app.fetch(query, { key: SANDBOX_KEY });
      expect(res.status).toBe(200);
      return (await res.json()) as { count: number; data: { device_id: string; agent: string; created_at: string; technical_data: Record<string, unknown> }[] };
    });

    const inputs = await loadTasInputs({ ctx: { db: tdb.handle.db, tenantId: SANDBOX_TENANT_ID }, deviceIds: [...heavy, "sbx-002"], now });
    for (const id of heavy) {
      const overspeed = alerts.filter((a) => a.device_id === id && a.agent === "driving" && a.technical_data.rule === "overspeed" && Date.parse(a.created_at) >= since.getTime());
      const harshRows = await tdb.handle.db
        .select()
        .from(drivingEvents)
        .where(
          and(eq(drivingEvents.tenantId, SANDBOX_TENANT_ID), eq(drivingEvents.deviceId, id), gte(drivingEvents.ts, since), inArray(drivingEvents.kind, [...HARSH_EVENT_KINDS])),
        );
      const input = inputs.get(id);
      if (!input) throw new Error(`${id} missing`);
      // tas-2027.01: speeding is measured from the speed history (shares over 130 km/h), not counted from alerts.
      expect(input.behaviour.speeding, id).not.toBeNull();
      expect(overspeed.length, id).toBeGreaterThan(0);
      expect(input.behaviour.harsh_events, id).toBe(harshRows.length);
      expect(harshRows.length, id).toBeGreaterThan(0);

      // GET /tas/{id} scores the behaviour with both counts: not the score it would have without the harsh events.
      const pillar = await usagePillar(id, SANDBOX_KEY);
      expect(pillar).toEqual(computeTas(input, { now }).pillars.usage_behaviour);
      expect(pillar.source).toBe("telemetry_derived");
      expect(pillar.score).toBeLessThan(
        computeTas({ ...input, behaviour: { ...input.behaviour, harsh_events: null, harsh_events_weighted: null } }, { now }).pillars.usage_behaviour.score,
      );
    }
    // A sandbox vehicle whose unit reports no events and samples every 5 minutes: unknown, not zero.
    const quiet = inputs.get("sbx-002");
    if (!quiet) throw new Error("sbx-002 missing");
    expect(quiet.behaviour.harsh_events).toBeNull();
  });
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
