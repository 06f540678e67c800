import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { createTenantWithKey } from "../helpers/fixtures";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * Two instances of the built app behind one counter store: the per-key budget holds across both,
 * on Redis (REDIS_URL) and on Postgres alone.
 */
describe.each(["redis", "postgres"] as const)("two app instances sharing the %s store", (store) => {
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let apps: AppProcess[] = [];
  let key = "";

  beforeAll(async () => {
    pg = await createPostgresDatabase("fdp_it", "seeded");
    const handle = await openDatabase({ url: pg.url });
    await migrateWithPartitions(handle);
    ({ key } = await createTenantWithKey(handle.db));
    await handle.close();
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: store === "redis" ? (process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379") : undefined,
      RATE_LIMIT_API_PER_MIN: "10",
    };
    apps = await Promise.all([startApp({ mode: "start", env }), startApp({ mode: "start", env })]);
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await pg?.drop();
  });

  it("refuses the 11th request of a key whichever instance serves it", async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 12; i++) {
      const app = apps[i % 2]!;
      const res = await fetch(`${app.url}/api/v1/fleet`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(res.status);
      remaining.push(res.headers.get("ratelimit-remaining") ?? "");
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    expect(remaining.slice(0, 10)).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
  });
});
