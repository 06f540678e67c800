import { afterAll, beforeAll, expect } from "vitest";
import { batteryHealthSnapshotSchema, eolSummarySchema, tasScoreSchema, vehicleHealthScoreSchema } from "@/lib/schemas/scores-device";
import { createTenantWithKey } from "./fixtures";
import { createTestDatabase, type TestDatabase } from "./databases";
import { startRouteServer, type RouteServer } from "./route-server";

/**
 * The harness of the tests that push telemetry through the real ingest endpoint and read the scores
 * back: a fresh database of the project's kind (Postgres or PGlite) and the route server
 * (`useIngestServer`), with one tenant and the HTTP calls those tests make (`useIngestApi`).
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

/**
 * A builder of parked, switched-off BEV records (Kia EV6, SOC 70 %) at `hours` (plus `minutes`) after
 * `base` (ms); `fields` override or add SPEC 2.17 fields.
 */
export function parkedBevRecords(base: number): (vin: string, hours: number, fields: Rec, minutes?: number) => Rec {
  return (vin, hours, fields, minutes = 0) => ({
    vin,
    timestamp: iso(base + hours * HOUR + minutes * MIN),
    speed_kmh: 0,
    soc_percent: 70,
    raw_data: { ignition: false, vehicle: { make: "Kia", model: "EV6", powertrain: "BEV" } },
    ...fields,
  });
}

type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;

interface IngestServer {
  readonly tdb: TestDatabase;
  readonly app: RouteServer;
  /** POST /oem/ingest as tenant `t`, in payloads of at most 2,000 records; expects 200 for each. */
  ingestAs(t: Tenant, records: unknown[]): Promise<void>;
  /** /api/v1{path} as tenant `t` (GET unless said), `body` sent as JSON: the status and the JSON answer (null for an empty one, a 204). */
  call: (t: Tenant, path: string, init?: { method?: string; body?: unknown }) => Promise<{ status: number; body: Record<string, unknown> | null }>;
}

/**
 * A fresh database of the project's kind (Postgres or PGlite) and the route server, for tests that
 * make their own tenants. Registers its own beforeAll/afterAll.
 */
export function useIngestServer(): IngestServer {
  let tdb: TestDatabase | undefined;
  let app: RouteServer | undefined;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "100000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await tdb?.dispose();
  });

  const server: IngestServer = {
    get tdb() {
      return ready(tdb, "the database");
    },
    get app() {
      return ready(app, "the route server");
    },
    async ingestAs(t, records) {
      for (let i = 0; i < records.length; i += 2000) {
        const res = await server.app.fetch("/api/v1/oem/ingest", {
          key: t.key,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ vehicles: records.slice(i, i + 2000) }),
        });
        expect(res.status, await res.clone().text()).toBe(200);
      }
    },
    async call(t, path, init = {}) {
      const res = await server.app.fetch(`/api/v1${path}`, {
        key: t.key,
        method: init.method ?? "GET",
        ...(init.body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(init.body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    },
  };
  return server;
}

function ready<T>(x: T | undefined, what: string): T {
  if (x === undefined) throw new Error(`ingest-api: ${what} is used before beforeAll ran`);
  return x;
}

interface IngestApi {
  readonly tdb: TestDatabase;
  readonly app: RouteServer;
  readonly t: Tenant;
  /** POST /oem/ingest with these records; expects 200. */
  ingest: (records: Rec[]) => Promise<void>;
  /** GET /api/v1{path} with the tenant's key; expects 200 and returns the JSON body. */
  get: (path: string) => Promise<unknown>;
  tas: (id: string) => Promise<ReturnType<typeof tasScoreSchema.parse>>;
  eol: (id: string) => Promise<ReturnType<typeof eolSummarySchema.parse>>;
  health: (id: string) => Promise<ReturnType<typeof vehicleHealthScoreSchema.parse>>;
  battery: (id: string) => Promise<ReturnType<typeof batteryHealthSnapshotSchema.parse>>;
}

/** useIngestServer with one tenant and its key, and the calls the single-tenant tests make. */
export function useIngestApi(tenantName: string): IngestApi {
  const server = useIngestServer();
  let t: Tenant | undefined;

  beforeAll(async () => {
    t = await createTenantWithKey(server.tdb.handle.db, { name: tenantName });
  });

  const api: IngestApi = {
    get tdb() {
      return server.tdb;
    },
    get app() {
      return server.app;
    },
    get t() {
      return ready(t, "the tenant");
    },
    ingest: (records) => server.ingestAs(api.t, records),
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
