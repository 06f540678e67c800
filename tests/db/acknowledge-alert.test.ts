import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acknowledgeAlert } from "@/lib/alerts/acknowledge-alert";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import type { TenantCtx } from "@/lib/context";
import { alerts, auditEvents } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import { listFleet } from "@/lib/fleet/list-fleet";
import { rootLogger } from "@/lib/log/logger";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertAlert, insertDevices } from "../helpers/fixtures";

/** The dashboard's "Acknowledge": what it writes, checked at the database, and whose alerts it may touch. */
let tdb: TestDatabase;
let a: TenantCtx;
let b: TenantCtx;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const ta = await createTenantWithKey(tdb.handle.db, { name: "ack a" });
  const tb = await createTenantWithKey(tdb.handle.db, { name: "ack b" });
  a = { db: tdb.handle.db, tenantId: ta.tenantId, isSandbox: false, log: rootLogger() };
  b = { db: tdb.handle.db, tenantId: tb.tenantId, isSandbox: false, log: rootLogger() };
  await insertDevices(tdb.handle.db, ta.tenantId, [{ deviceId: "v1" }]);
  await insertDevices(tdb.handle.db, tb.tenantId, [{ deviceId: "v1" }]);
});

afterAll(async () => {
  await tdb?.dispose();
});

const as = (ctx: TenantCtx, email: string): AuditedCtx => ({ ...ctx, actor: { userId: `usr_${email}`, email } });
const row = async (id: string) => (await tdb.handle.db.select().from(alerts).where(eq(alerts.id, id)))[0]!;
const levelOf = async (ctx: TenantCtx) => (await listFleet({ ctx, input: { limit: 10 } })).data.find((r) => r.device_id === "v1")!.alert_level;

describe("acknowledgeAlert", () => {
  it("records who and when, and the fleet's alert level drops to the next open alert", async () => {
    const critical = await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "CRITICAL" });
    await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "WARNING" });
    expect(await levelOf(a)).toBe("critical");
    const at = new Date("2026-11-24T05:00:00Z");
    const done = await acknowledgeAlert({ ctx: as(a, "reviewer@example.com"), input: { alert_id: critical }, now: at });
    expect(done).toEqual({ id: critical, acknowledged_by: "reviewer@example.com", acknowledged_at: at.toISOString(), changed: true });
    const stored = await row(critical);
    expect(stored).toMatchObject({ acknowledged: true, acknowledgedBy: "reviewer@example.com" });
    expect(stored.acknowledgedAt?.toISOString()).toBe(at.toISOString());
    expect(await levelOf(a)).toBe("warning");
    // The audit record, written with the change.
    const audit = await tdb.handle.db.select().from(auditEvents).where(eq(auditEvents.targetId, critical));
    expect(audit).toMatchObject([{ tenantId: a.tenantId, action: "alert.acknowledged", actorEmail: "reviewer@example.com", details: { device_id: "v1", severity: "CRITICAL" } }]);
  });

  it("acknowledging twice keeps the first reviewer and time", async () => {
    const id = await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "INFO" });
    await acknowledgeAlert({ ctx: as(a, "first@example.com"), input: { alert_id: id }, now: new Date("2026-11-24T01:00:00Z") });
    const again = await acknowledgeAlert({ ctx: as(a, "second@example.com"), input: { alert_id: id }, now: new Date("2026-11-24T02:00:00Z") });
    expect(again).toMatchObject({ changed: false, acknowledged_by: "first@example.com", acknowledged_at: "2026-11-24T01:00:00.000Z" });
    expect((await row(id)).acknowledgedBy).toBe("first@example.com");
    expect(await tdb.handle.db.select().from(auditEvents).where(eq(auditEvents.targetId, id))).toHaveLength(1);
  });

  it("another tenant's alert is not found and stays open", async () => {
    const foreign = await insertAlert(tdb.handle.db, b.tenantId, { deviceId: "v1", severity: "CRITICAL" });
    await expect(acknowledgeAlert({ ctx: as(a, "intruder@example.com"), input: { alert_id: foreign } })).rejects.toBeInstanceOf(NotFoundError);
    expect(await row(foreign)).toMatchObject({ acknowledged: false, acknowledgedBy: null, acknowledgedAt: null });
    expect(await tdb.handle.db.select().from(auditEvents).where(eq(auditEvents.targetId, foreign))).toEqual([]);
    expect(await levelOf(b)).toBe("critical");
  });
});
