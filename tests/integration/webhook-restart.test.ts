import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { rows } from "@/lib/db/sql-values";
import { sql } from "drizzle-orm";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { waitFor } from "../helpers/wait-for";

/**
 * Webhook delivery across real processes of the built app on one Postgres database: an instance killed
 * (SIGKILL) while a delivery is on its way loses nothing, since the event and its delivery were committed
 * with the change; the next instance sends it again with the same webhook-id once the dead one's claim
 * expires. Two instances running side by side deliver each event once.
 */

let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let handle: DbHandle;
const apps: AppProcess[] = [];
/** One attempt's bound: 3 s, so the kill comes while the attempt is on its way; the dead instance's claim expires 2 × 3 s + 1 s after it was taken. */
const ENV = (url: string) => ({ DATABASE_URL: url, REDIS_URL: undefined, WEBHOOK_ALLOW_LOOPBACK: "1", WEBHOOK_TIMEOUT_MS: "3000", WEBHOOK_POLL_INTERVAL_MS: "50" });

interface Receiver {
  url: string;
  ids: string[];
  /** How the receiver answers: "hang" keeps the request open (the delivery in flight), else a status. */
  mode: "hang" | number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const held: ServerResponse[] = [];
  const receiver: Receiver = { url: "", ids: [], mode: 204, close: async () => {} };
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      receiver.ids.push(String(req.headers["webhook-id"]));
      if (receiver.mode === "hang") held.push(res);
      else res.writeHead(receiver.mode).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const r of held) r.destroy();
      http.close(() => resolve());
      http.closeAllConnections();
    });
  return receiver;
}

beforeAll(async () => {
  pg = await createPostgresDatabase("fdp_it", "seeded");
  handle = await openDatabase({ url: pg.url });
  await migrateWithPartitions(handle);
}, 240_000);

afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()));
  await handle?.close();
  await pg?.drop();
});

async function registerAndIngest(app: AppProcess, key: string, receiver: Receiver, vins: string[]) {
  const created = await fetch(`${app.url}/api/v1/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url, events: ["device.created"] }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const ingest = await fetch(`${app.url}/api/v1/oem/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ vehicles: vins.map((vin) => ({ vin, timestamp: new Date(Date.now() - 60_000).toISOString(), speed_kmh: 0 })) }),
  });
  expect(ingest.status).toBe(200);
  return ((await created.json()) as { id: string }).id;
}

const deliveries = (endpointId: string) =>
  rows<{ status: string; attempts: number; claimed: boolean }>(
    handle.db,
    sql`select status, attempts, coalesce(locked_until > now(), false) as claimed from webhook_deliveries where endpoint_id = ${endpointId} order by id`,
  );

describe("webhook delivery across app processes", () => {
  it("an instance killed with a delivery in flight loses nothing: the next one sends it again with the same webhook-id", async () => {
    const { key } = await createTenantWithKey(handle.db, { name: "Crash tenant" });
    const receiver = await startReceiver();
    try {
      receiver.mode = "hang";
      const first = await startApp({ mode: "start", env: ENV(pg.url) });
      apps.push(first);
      const endpoint = await registerAndIngest(first, key, receiver, ["WHCRASH0000000001"]);
      // The delivery reached the receiver, which holds it: committed, claimed, not settled.
      expect(await waitFor(async () => receiver.ids.length === 1, 15_000)).toBe(true);
      process.kill(first.serverPid(), "SIGKILL");
      await first.exited;
      // Still claimed by the dead instance: nobody settled it.
      expect(await deliveries(endpoint)).toEqual([{ status: "pending", attempts: 1, claimed: true }]);

      receiver.mode = 204;
      const second = await startApp({ mode: "start", env: ENV(pg.url) });
      apps.push(second);
      expect(await waitFor(async () => (await deliveries(endpoint))[0]?.status === "delivered", 30_000)).toBe(true);
      // Sent twice, both with the event's id: the receiver dedupes on it.
      expect(receiver.ids).toHaveLength(2);
      expect(receiver.ids[1]).toBe(receiver.ids[0]);
      expect(await deliveries(endpoint)).toEqual([{ status: "delivered", attempts: 2, claimed: false }]);
      await second.stop();
    } finally {
      await receiver.close();
    }
  });

  it("two instances side by side deliver each event once", async () => {
    const { key } = await createTenantWithKey(handle.db, { name: "Two instances tenant" });
    const receiver = await startReceiver();
    try {
      const pair = await Promise.all([startApp({ mode: "start", env: ENV(pg.url) }), startApp({ mode: "start", env: ENV(pg.url) })]);
      apps.push(...pair);
      const vins = Array.from({ length: 20 }, (_, i) => `WHPAIR${String(i).padStart(11, "0")}`);
      const endpoint = await registerAndIngest(pair[0], key, receiver, vins);
      expect(await waitFor(async () => (await deliveries(endpoint)).every((d) => d.status === "delivered"), 30_000)).toBe(true);
      expect(receiver.ids).toHaveLength(20);
      expect(new Set(receiver.ids).size).toBe(20);
      expect((await deliveries(endpoint)).every((d) => d.attempts === 1 && !d.claimed)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
