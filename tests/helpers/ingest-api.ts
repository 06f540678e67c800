import { afterAll, beforeAll, expect } from "vitest";
import { batteryHealthSnapshotSchema, eolSummarySchema, tasScoreSchema, vehicleHealthScoreSchema } from "@/lib/schemas/scores-device";
import { createTenantWithKey } from "./fixtures";
import { createTestDatabase, type TestDatabase } from "./databases";
import { startRouteServer, type RouteServer } from "./route-server";

/**
 * The harness of the tests that push telemetry through the real ingest endpoint and read the scores
 * back over HTTP: a fresh database of the project's kind (Postgres or PGlite), one tenant with a key,
 * the route server, and the calls those tests make. Registers its own beforeAll/afterAll.
 */

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();
export type Rec = Record<string, unknown>;

/** VINs unique within a file: `prefix` + a running number (17 characters with an 11-character prefix). */
export function vinSequence(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}${String(++n).padStart(17 - prefix.length, "0")}`;
}

export interface IngestApi {
  readonly tdb: TestDatabase;
  readonly app: RouteServer;
  readonly t: Awaited<ReturnType<typeof createTenantWithKey>>;
  /** POST /oem/ingest with these records; expects 200. */
  ingest(records: Rec[]): Promise<void>;
  /** GET /api/v1{path} with the tenant's key; expects 200 and returns the JSON body. */
  get(path: string): Promise<unknown>;
  tas(id: string): Promise<ReturnType<typeof tasScoreSchema.parse>>;
  eol(id: string): Promise<ReturnType<typeof eolSummarySchema.parse>>;
  health(id: string): Promise<ReturnType<typeof vehicleHealthScoreSchema.parse>>;
  battery(id: string): Promise<ReturnType<typeof batteryHealthSnapshotSchema.parse>>;
}

export function useIngestApi(tenantName: string): IngestApi {
  let tdb: TestDatabase | undefined;
  let app: RouteServer | undefined;
  let t: Awaited<ReturnType<typeof createTenantWithKey>> | undefined;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    t = await createTenantWithKey(tdb.handle.db, { name: tenantName });
    app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await tdb?.dispose();
  });

  const ready = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`useIngestApi: ${what} is used before beforeAll ran`);
    return x;
  };
  const api: IngestApi = {
    get tdb() {
      return ready(tdb, "the database");
    },
    get app() {
      return ready(app, "the route server");
    },
    get t() {
      return ready(t, "the tenant");
    },
    async ingest(records) {
      const res = await api.app.fetch("/api/v1/oem/ingest", {
        key: api.t.key,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ vehicles: records }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    },
    async get(path) {
      const res = await api.app.fetch(`/api/v1${path}`, { key: api.t.key });
      expect(res.status, await res.clone().text()).toBe(200);
      return res.json();
    },
    tas: async (id) => tasScoreSchema.parse(await api.get(`/tas/${id}`)),
    eol: async (id) => eolSummarySchema.parse(await api.get(`/vehicles/${id}/eol-summary`)),
    health: async (id) => vehicleHealthScoreSchema.parse(await api.get(`/scores/vehicle-health/${id}`)),
    battery: async (id) => batteryHealthSnapshotSchema.parse(await api.get(`/vehicles/${id}/battery-health-snapshot`)),
  };
  return api;
}
