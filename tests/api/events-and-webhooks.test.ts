import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { acknowledgeAlert } from "@/lib/alerts/acknowledge-alert";
import { revokeCertificate } from "@/lib/certificates/revoke-certificate";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { eventsPageSchema, webhookListSchema, webhookSchema } from "@/lib/schemas/webhooks";
import { createTenantWithKey } from "../helpers/fixtures";
import { MIN, iso, useIngestServer, vinSequence } from "../helpers/ingest-api";

/**
 * The outbox and the changes feed (CONTRACT "Webhooks and the changes feed") through the real route
 * server, on both drivers: ingest, a person's acknowledgement and certificates emit their events in the
 * transaction of the change, a rolled-back ingest emits nothing, the cursor pages through the same
 * events in order; webhook registration, its target checks, listing, deletion and replay.
 */

const server = useIngestServer();
const vin = vinSequence("EVTFEED");
type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;

const call = server.call;

async function feed(t: Tenant, query = "") {
  const res = await call(t, `/events${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return eventsPageSchema.parse(res.body) as { data: { id: string; type: string; timestamp: string; data: Record<string, unknown> }[]; next_cursor: string; has_more: boolean };
}

/** Every event of the tenant, paged `limit` at a time through the cursor. */
async function wholeFeed(t: Tenant, limit: number) {
  const all: { id: string; type: string }[] = [];
  let after = "";
  for (let page = 0; page < 100; page++) {
    const p = await feed(t, `?limit=${limit}${after ? `&after=${after}` : ""}`);
    all.push(...p.data);
    after = p.next_cursor;
    if (!p.has_more) return { all, after };
  }
  throw new Error("the feed did not end");
}

const now = Date.now();
const sohRecord = (v: string, minutesAgo: number, soh: number) => ({
  vin: v,
  timestamp: iso(now - minutesAgo * MIN),
  speed_kmh: 0,
  soc_percent: 60,
  soh_percent: soh,
  raw_data: { vehicle: { make: "Kia", model: "EV6", powertrain: "BEV" } },
});

describe("the changes feed", () => {
  it("lists what ingest, a person and certificates changed, in commit order, and pages through it with the cursor", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Feed tenant" });
    const [a, b] = [vin(), vin()];
    // Two new vehicles; one with a state of health below 60 % (a CRITICAL battery alert).
    await server.ingestAs(t, [sohRecord(a, 60, 95), sohRecord(b, 60, 55)]);
    let page = await feed(t);
    expect(page.data.map((e) => e.type)).toEqual(["device.created", "device.created", "alert.created"]);
    expect(page.data.slice(0, 2).map((e) => (e.data as { device_id: string }).device_id)).toEqual([`oem-${a}`, `oem-${b}`].sort());
    const raised = page.data[2]!;
    expect(raised.data).toMatchObject({ device_id: `oem-${b}`, agent: "battery", severity: "CRITICAL" });
    expect(raised.id).toMatch(/^evt_/);
    expect(JSON.stringify(page)).not.toContain(t.tenantId);

    // The same payload again: nothing new (no device created, no alert raised).
    await server.ingestAs(t, [sohRecord(a, 60, 95), sohRecord(b, 60, 55)]);
    expect((await feed(t)).data).toHaveLength(3);

    // A person acknowledges the alert: alert.updated with change "acknowledged".
    const alertId = (raised.data as { alert_id: string }).alert_id;
    await acknowledgeAlert({
      ctx: { db: server.tdb.handle.db, tenantId: t.tenantId, isSandbox: false, log: rootLogger(), actor: { userId: "usr_test", email: "m@example.com" } },
      input: { alert_id: alertId },
    });
    // A certificate generated and revoked.
    const cert = await call(t, `/certificates/generate/oem-${a}`, { method: "POST" });
    expect(cert.status).toBe(200);
    const number = String(cert.body?.certificate_number);
    await revokeCertificate({ ctx: { db: server.tdb.handle.db }, input: { number, reason: "issued by mistake" } });

    page = await feed(t);
    expect(page.data.map((e) => e.type)).toEqual(["device.created", "device.created", "alert.created", "alert.updated", "certificate.generated", "certificate.revoked"]);
    expect(page.data[3]!.data).toEqual({ device_id: `oem-${b}`, alert_id: alertId, agent: "battery", severity: "CRITICAL", change: "acknowledged" });
    expect(page.data[4]!.data).toMatchObject({ device_id: `oem-${a}`, certificate_number: number, grade: cert.body?.grade });
    expect(page.data[5]!.data).toMatchObject({ device_id: `oem-${a}`, certificate_number: number });
    expect(page.has_more).toBe(false);

    // Paged two at a time: the same events in the same order; the last cursor finds nothing new.
    const paged = await wholeFeed(t, 2);
    expect(paged.all.map((e) => e.id)).toEqual(page.data.map((e) => e.id));
    const after = await feed(t, `?after=${paged.after}`);
    expect(after).toMatchObject({ data: [], has_more: false, next_cursor: paged.after });
    // Filtered by type.
    expect((await feed(t, "?type=device.created")).data.map((e) => e.type)).toEqual(["device.created", "device.created"]);

    // Another tenant sees none of it.
    const other = await createTenantWithKey(server.tdb.handle.db, { name: "Other tenant" });
    expect((await feed(other)).data).toEqual([]);
  });

  it("an escalation: the more severe alert's alert.created, and alert.updated (escalated) for the open one it escalates", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Escalation tenant" });
    const v = vin();
    // SoH 68 %: a WARNING; then 58 %, confirmed by the next reading: a CRITICAL raised beside it.
    await server.ingestAs(t, [sohRecord(v, 50, 68)]);
    await server.ingestAs(t, [sohRecord(v, 40, 58)]);
    await server.ingestAs(t, [sohRecord(v, 35, 58)]);
    const alertEvents = (await feed(t)).data.filter((e) => e.type.startsWith("alert."));
    const warning = alertEvents.find((e) => e.type === "alert.created" && e.data.severity === "WARNING");
    const critical = alertEvents.find((e) => e.type === "alert.created" && e.data.severity === "CRITICAL");
    expect(warning && critical, JSON.stringify(alertEvents)).toBeTruthy();
    const escalated = alertEvents.filter((e) => e.data.change === "escalated");
    expect(escalated).toHaveLength(1);
    expect(escalated[0]).toMatchObject({
      type: "alert.updated",
      data: { device_id: `oem-${v}`, alert_id: warning!.data.alert_id, severity: "WARNING", change: "escalated", escalated_to: critical!.data.alert_id },
    });
    // After the CRITICAL's alert.created, in commit order.
    expect(alertEvents.indexOf(escalated[0]!)).toBeGreaterThan(alertEvents.indexOf(critical!));
  });

  it("emits nothing for an ingest that is refused and rolled back", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Rollback tenant" });
    const before = await server.tdb.handle.db.$count(events, eq(events.tenantId, t.tenantId));
    // The second record is invalid: the whole payload is refused, nothing is stored.
    const res = await call(t, "/oem/ingest", { method: "POST", body: { vehicles: [sohRecord(vin(), 10, 50), { vin: "short", timestamp: "yesterday" }] } });
    expect(res.status).toBe(400);
    expect(await server.tdb.handle.db.$count(events, eq(events.tenantId, t.tenantId))).toBe(before);
  });

  it("refuses a cursor it did not give, an unknown type and an out-of-range limit with 400", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Cursor tenant" });
    for (const query of ["?after=bogus", `?after=${Buffer.from("seq:-1").toString("base64url")}`, "?after=c2VxOjE%3D%3D", "?type=alert.deleted", "?limit=0", "?limit=501"]) {
      const res = await call(t, `/events${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: "invalid_request" });
    }
  });
});

describe("webhook endpoints", () => {
  it("registers with a secret shown once, lists and reads without it, replays, deletes; another tenant's id is a 404", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Webhook tenant" });
    await server.ingestAs(t, [sohRecord(vin(), 30, 90)]);
    const created = await call(t, "/webhooks", {
      method: "POST",
      body: { url: "https://93.184.215.14/hooks", events: ["device.created", "alert.created"], description: "Claims" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ url: "https://93.184.215.14/hooks", events: ["device.created", "alert.created"], description: "Claims" });
    const secret = String(created.body?.secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const id = String(created.body?.id);

    const list = await call(t, "/webhooks");
    expect(list.status).toBe(200);
    const parsed = webhookListSchema.parse(list.body);
    expect(parsed.data.map((w) => w.id)).toEqual([id]);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6, 20));
    const one = await call(t, `/webhooks/${id}`);
    expect(webhookSchema.parse(one.body)).toMatchObject({ id, last_delivery: null });

    // Replay from an hour ago: the device.created emitted before the endpoint existed is queued for it.
    const replay = await call(t, `/webhooks/${id}/replay`, { method: "POST", body: { since: iso(now - 60 * MIN) } });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ webhook_id: id, events: 1 });
    expect(await server.tdb.handle.db.$count(webhookDeliveries, eq(webhookDeliveries.endpointId, id))).toBe(1);
    expect(webhookSchema.parse((await call(t, `/webhooks/${id}`)).body).last_delivery).toMatchObject({ status: "pending", attempts: 0 });
    // Again while it waits: not queued twice. A year-0 `since` is a 400, not a database error.
    expect((await call(t, `/webhooks/${id}/replay`, { method: "POST", body: { since: iso(now - 60 * MIN) } })).body).toMatchObject({ events: 0 });
    expect((await call(t, `/webhooks/${id}/replay`, { method: "POST", body: { since: "0000-01-01T00:00:00Z" } })).status).toBe(400);

    // A new event the endpoint subscribes to gets a delivery in the same transaction; one it does not, none.
    await server.ingestAs(t, [sohRecord(vin(), 20, 90)]);
    expect(await server.tdb.handle.db.$count(webhookDeliveries, eq(webhookDeliveries.endpointId, id))).toBe(2);

    const other = await createTenantWithKey(server.tdb.handle.db, { name: "Other webhook tenant" });
    for (const [method, path, body] of [
      ["GET", `/webhooks/${id}`, undefined],
      ["DELETE", `/webhooks/${id}`, undefined],
      ["POST", `/webhooks/${id}/replay`, { since: iso(now - MIN) }],
    ] as const) {
      expect((await call(other, path, { method, body })).status, `${method} ${path}`).toBe(404);
    }
    expect(webhookListSchema.parse((await call(other, "/webhooks")).body).data).toEqual([]);

    const deleted = await call(t, `/webhooks/${id}`, { method: "DELETE" });
    expect(deleted).toEqual({ status: 204, body: null });
    expect(await server.tdb.handle.db.$count(webhookEndpoints, eq(webhookEndpoints.id, id))).toBe(0);
    expect(await server.tdb.handle.db.$count(webhookDeliveries, eq(webhookDeliveries.endpointId, id))).toBe(0);
    expect((await call(t, `/webhooks/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses private, link-local, metadata, loopback and non-http(s) targets with 400, and bad bodies", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "SSRF tenant" });
    const targets = [
      "http://10.0.0.5/hook",
      "https://172.16.3.4/hook",
      "https://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data/",
      "https://[fe80::1]/hook",
      "https://[fd00::1]/hook",
      "https://[::ffff:10.0.0.1]/hook",
      "https://0.0.0.0/hook",
      "https://224.0.0.1/hook",
      "https://240.0.0.1/hook",
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "https://[::1]/hook",
      "ftp://93.184.215.14/hook",
      "file:///etc/passwd",
      "https://user:pass@93.184.215.14/hook",
      "not a url",
    ];
    for (const url of targets) {
      const res = await call(t, "/webhooks", { method: "POST", body: { url, events: ["alert.created"] } });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ error: "invalid_request" });
    }
    for (const body of [
      { url: "https://93.184.215.14/", events: [] },
      { url: "https://93.184.215.14/", events: ["alert.deleted"] },
      { url: "https://93.184.215.14/", events: ["alert.created", "alert.created"] },
      { events: ["alert.created"] },
    ]) {
      expect((await call(t, "/webhooks", { method: "POST", body })).status, JSON.stringify(body)).toBe(400);
    }
    expect(await server.tdb.handle.db.$count(webhookEndpoints, eq(webhookEndpoints.tenantId, t.tenantId))).toBe(0);
  });
});
