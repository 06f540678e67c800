import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { TenantCtx } from "@/lib/context";
import { authSecret } from "@/lib/dashboard/auth-secret";
import { listFleetTable } from "@/lib/dashboard/fleet-table";
import { getVehicleSummary } from "@/lib/dashboard/get-vehicle-summary";
import { tenants, users } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { createUser } from "@/lib/users/create-user";
import { DEMO_USER_EMAIL, ensureDemoUser } from "@/lib/users/ensure-demo-user";
import { verifyUserPassword } from "@/lib/users/verify-user-password";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";

/**
 * What the dashboard's sign-in and pages stand on: the demo user (created, kept, its password
 * following FDP_DEMO_PASSWORD), the session secret generated once, and the two dashboard reads,
 * scoped to the session's tenant.
 */
let tdb: TestDatabase;
const work = mkdtempSync(path.join(tmpdir(), "fdp-dash-"));
const ctxOf = (tenantId: string): TenantCtx => ({ db: tdb.handle.db, tenantId, isSandbox: false, log: rootLogger() });

beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.handle.db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "s" });
});

afterAll(async () => {
  delete process.env.AUTH_SECRET;
  delete process.env.AUTH_SECRET_FILE;
  resetEnvCache();
  await tdb?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("ensureDemoUser", () => {
  it("creates the demo user in the sandbox tenant once, then leaves it alone, and follows a changed password", async () => {
    const ctx = { db: tdb.handle.db };
    expect(await ensureDemoUser({ ctx, input: { password: "sandbox-demo-2026" } })).toBe("created");
    expect(await ensureDemoUser({ ctx, input: { password: "sandbox-demo-2026" } })).toBe("unchanged");
    expect(await verifyUserPassword({ ctx, input: { email: DEMO_USER_EMAIL, password: "sandbox-demo-2026" } })).toMatchObject({ tenantId: SANDBOX_TENANT_ID });

    expect(await ensureDemoUser({ ctx, input: { password: "another-demo-password" } })).toBe("password_updated");
    expect(await verifyUserPassword({ ctx, input: { email: DEMO_USER_EMAIL, password: "sandbox-demo-2026" } })).toBeNull();
    expect(await verifyUserPassword({ ctx, input: { email: DEMO_USER_EMAIL, password: "another-demo-password" } })).toMatchObject({ tenantId: SANDBOX_TENANT_ID });
    expect(await tdb.handle.db.select().from(users).where(eq(users.email, DEMO_USER_EMAIL))).toHaveLength(1);
  });

  it("refuses a password the policy refuses, and never takes over the address from another tenant's user", async () => {
    const ctx = { db: tdb.handle.db };
    await expect(ensureDemoUser({ ctx, input: { password: "short" } })).rejects.toThrow(/at least 10/);
    await tdb.handle.db.delete(users).where(eq(users.email, DEMO_USER_EMAIL));
    const other = await createTenantWithKey(tdb.handle.db);
    await createUser({ ctx, input: { tenantId: other.tenantId, email: DEMO_USER_EMAIL, password: "owned-by-other" } });
    expect(await ensureDemoUser({ ctx, input: { password: "sandbox-demo-2026" } })).toBe("email_taken");
    expect(await verifyUserPassword({ ctx, input: { email: DEMO_USER_EMAIL, password: "owned-by-other" } })).toMatchObject({ tenantId: other.tenantId });
    await tdb.handle.db.delete(users).where(eq(users.email, DEMO_USER_EMAIL));
  });
});

describe("dashboard reads are scoped to the session's tenant", () => {
  it("the fleet table carries powertrain and SOC beside the fleet verb's rows; another tenant's vehicle is unknown", async () => {
    const a = await createTenantWithKey(tdb.handle.db, { name: "A" });
    const b = await createTenantWithKey(tdb.handle.db, { name: "B" });
    await insertDevices(tdb.handle.db, a.tenantId, [
      { deviceId: "a-ev", name: "Van EV", powertrain: "BEV", socPct: 57.4 },
      { deviceId: "a-ice", name: "Van ICE", powertrain: "ICE" },
    ]);
    await insertDevices(tdb.handle.db, b.tenantId, [{ deviceId: "b-ev", name: "Other EV", powertrain: "BEV", socPct: 12 }]);

    const rows = await listFleetTable({ ctx: ctxOf(a.tenantId) });
    expect(rows.map((r) => [r.device_id, r.device_name, r.powertrain, r.soc_pct])).toEqual([
      ["a-ev", "Van EV", "BEV", 57.4],
      ["a-ice", "Van ICE", "ICE", null],
    ]);

    expect(await getVehicleSummary({ ctx: ctxOf(a.tenantId), input: { device_id: "a-ev" } })).toMatchObject({ name: "Van EV", status: "parked", socPct: 57.4 });
    expect(await getVehicleSummary({ ctx: ctxOf(a.tenantId), input: { device_id: "b-ev" } })).toBeNull();
    expect(await getVehicleSummary({ ctx: ctxOf(b.tenantId), input: { device_id: "b-ev" } })).toMatchObject({ name: "Other EV" });
  });
});

describe("authSecret", () => {
  it("without AUTH_SECRET: generated once into the file (0600) and read back the same; AUTH_SECRET wins", () => {
    delete process.env.AUTH_SECRET;
    process.env.AUTH_SECRET_FILE = path.join(work, "nested", "auth-secret");
    resetEnvCache();
    const first = authSecret();
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(process.env.AUTH_SECRET_FILE, "utf8")).toBe(first);
    expect(statSync(process.env.AUTH_SECRET_FILE).mode & 0o777).toBe(0o600);
    expect(authSecret()).toBe(first);
    process.env.AUTH_SECRET = "configured-secret-of-enough-length-000000";
    resetEnvCache();
    expect(authSecret()).toBe("configured-secret-of-enough-length-000000");
  });
});
