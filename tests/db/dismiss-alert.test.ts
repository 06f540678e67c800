import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertDismissals } from "@/lib/alerts/alert-dismissals";
import { dismissAlert } from "@/lib/alerts/dismiss-alert";
import { listAlerts } from "@/lib/alerts/list-alerts";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import type { TenantCtx } from "@/lib/context";
import { alerts, auditEvents } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { rootLogger } from "@/lib/log/logger";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertAlert, insertDevices } from "../helpers/fixtures";

/** The dashboard's "Dismiss as false alarm": what it writes, checked at the database, whose alerts it may touch, which reasons it takes. */
let tdb: TestDatabase;
let a: TenantCtx;
let b: TenantCtx;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const ta = await createTenantWithKey(tdb.handle.db, { name: "dismiss a" });
  const tb = await createTenantWithKey(tdb.handle.db, { name: "dismiss b" });
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
const auditOf = (id: string) => tdb.handle.db.select().from(auditEvents).where(eq(auditEvents.targetId, id));

describe("dismissAlert", () => {
  it("writes the dismissal (trimmed reason), acknowledges the alert, and records alert.dismissed with the reason", async () => {
    const id = await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "CRITICAL" });
    const at = new Date("2026-11-24T05:30:00Z");
    const done = await dismissAlert({ ctx: as(a, "reviewer@example.com"), input: { alert_id: id, reason: "  Cluster swapped, invoice on file  " }, now: at });
    expect(done).toEqual({ id, dismissed_by: "reviewer@example.com", dismissed_at: at.toISOString(), dismissal_reason: "Cluster swapped, invoice on file", changed: true });
    const stored = await row(id);
    expect(stored).toMatchObject({
      dismissedBy: "reviewer@example.com",
      dismissalReason: "Cluster swapped, invoice on file",
      acknowledged: true,
      acknowledgedBy: "reviewer@example.com",
    });
    expect(stored.dismissedAt?.toISOString()).toBe(at.toISOString());
    expect(stored.acknowledgedAt?.toISOString()).toBe(at.toISOString());
    expect(await auditOf(id)).toMatchObject([
      {
        tenantId: a.tenantId,
        action: "alert.dismissed",
        actorEmail: "reviewer@example.com",
        details: { device_id: "v1", severity: "CRITICAL", reason: "Cluster swapped, invoice on file" },
      },
    ]);
    // The dashboard's lookup finds it; the API's alert shape (SPEC 2.2) is unchanged.
    expect((await alertDismissals({ ctx: a, input: { alert_ids: [id] } })).get(id)).toEqual({
      dismissed_by: "reviewer@example.com",
      dismissed_at: at.toISOString(),
      reason: "Cluster swapped, invoice on file",
    });
    const listed = (await listAlerts({ ctx: a, input: { limit: 50 } })).data.find((x) => x.id === id)!;
    expect(Object.keys(listed)).not.toContain("dismissal_reason");
    expect(listed).toMatchObject({ acknowledged: true, acknowledged_by: "reviewer@example.com" });
  });

  it("keeps an earlier acknowledgement, and a second dismissal keeps the first reviewer and reason", async () => {
    const id = await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "WARNING", acknowledged: true });
    const ackAt = (await row(id)).acknowledgedAt!.toISOString();
    await dismissAlert({ ctx: as(a, "first@example.com"), input: { alert_id: id, reason: "first reason" }, now: new Date("2026-11-24T01:00:00Z") });
    const again = await dismissAlert({ ctx: as(a, "second@example.com"), input: { alert_id: id, reason: "second reason" } });
    expect(again).toMatchObject({ changed: false, dismissed_by: "first@example.com", dismissal_reason: "first reason" });
    expect(await row(id)).toMatchObject({ acknowledgedBy: "ops@example.com", dismissedBy: "first@example.com" });
    expect((await row(id)).acknowledgedAt?.toISOString()).toBe(ackAt);
    expect(await auditOf(id)).toHaveLength(1);
  });

  it("another tenant's alert is not found and nothing is written", async () => {
    const foreign = await insertAlert(tdb.handle.db, b.tenantId, { deviceId: "v1", severity: "CRITICAL" });
    await expect(dismissAlert({ ctx: as(a, "intruder@example.com"), input: { alert_id: foreign, reason: "not mine to dismiss" } })).rejects.toBeInstanceOf(NotFoundError);
    expect(await row(foreign)).toMatchObject({ acknowledged: false, dismissedAt: null, dismissedBy: null, dismissalReason: null });
    expect(await auditOf(foreign)).toEqual([]);
    expect((await alertDismissals({ ctx: a, input: { alert_ids: [foreign] } })).size).toBe(0);
  });

  it.each([
    ["empty", ""],
    ["blank", "     "],
    ["too short after trimming", "  ok  "],
    ["too long", "x".repeat(501)],
    ["a NUL character", "false\u0000alarm"],
    ["a lone surrogate", "false \ud800 alarm"],
  ])("refuses a reason that is %s, writing nothing", async (_what, reason) => {
    const id = await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "INFO" });
    await expect(dismissAlert({ ctx: as(a, "reviewer@example.com"), input: { alert_id: id, reason } })).rejects.toBeInstanceOf(ValidationError);
    expect(await row(id)).toMatchObject({ acknowledged: false, dismissedAt: null });
    expect(await auditOf(id)).toEqual([]);
  });

  it("takes a reason of exactly 3 and exactly 500 characters", async () => {
    for (const reason of ["abc", "y".repeat(500)]) {
      const id = await insertAlert(tdb.handle.db, a.tenantId, { deviceId: "v1", severity: "INFO" });
      await expect(dismissAlert({ ctx: as(a, "reviewer@example.com"), input: { alert_id: id, reason } })).resolves.toMatchObject({ changed: true, dismissal_reason: reason });
    }
  });
});
