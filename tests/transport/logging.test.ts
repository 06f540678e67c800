import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as tas from "@/lib/scores/tas";
import * as vehicleHealth from "@/lib/scores/vehicle-health";
import { setRootLogger } from "@/lib/log/logger";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { captureLog, type CapturedLog } from "../helpers/log-capture";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * What the service logs when something fails: one JSON line with the request id, the operation and
 * the tenant, the error's class and SQLSTATE and a truncated statement — never the request body or
 * the SQL parameters. And a device that fails inside a batch is logged, not only answered.
 */
let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
let log: CapturedLog;

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db);
  await insertDevices(tdb.handle.db, t.tenantId, [{ deviceId: "ok-1" }, { deviceId: "corrupt-1" }]);
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "1000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
});

afterEach(() => setRootLogger(undefined));

afterAll(async () => {
  setRootLogger(undefined);
  await app?.close();
  await tdb?.dispose();
});

function capture(): CapturedLog {
  log = captureLog("info");
  setRootLogger(log.logger);
  return log;
}

describe("an unhandled database error", () => {
  it("is one line with request id, operation, tenant, class and SQLSTATE, without body or parameters", async () => {
    capture();
    await tdb.handle.db.execute(sql`alter table telemetry rename to telemetry_gone`);
    try {
      const vin = "SECRETVIN00000042";
      const res = await app.fetch("/api/v1/oem/ingest", {
        key: t.key,
        method: "POST",
        // An OpenTelemetry caller's trace context (W3C traceparent): its trace id joins the line.
        headers: { "content-type": "application/json", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
        body: JSON.stringify({ vehicles: [{ vin, timestamp: new Date().toISOString(), raw_data: { note: "SECRET-body-note" } }] }),
      });
      expect(res.status).toBe(500);
      const [line] = log.records().filter((r) => r.msg === "unhandled error");
      expect(line).toMatchObject({
        level: "error",
        request_id: res.headers.get("x-request-id"),
        operation: "ingestOemTelemetry",
        tenant_id: t.tenantId,
        trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
        parent_span_id: "00f067aa0ba902b7",
      });
      const err = line!.err as Record<string, string>;
      expect(err.code).toBe("42P01");
      expect(err.error_class).toMatch(/Error$/);
      expect(err.statement?.length).toBeLessThanOrEqual(201);
      const text = log.text();
      for (const secret of [vin, "SECRET-body-note", t.key]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/Failed query|params:/);
    } finally {
      await tdb.handle.db.execute(sql`alter table telemetry_gone rename to telemetry`);
    }
  });
});

describe("a device that fails inside a batch", () => {
  it("is an error item for that device only, and a logged line with the request id and device id", async () => {
    // The loaders turn corrupt stored numbers into "unknown", so no stored data breaks a score today:
    // a bug is simulated by making the pure score functions answer an impossible score for one device.
    const impossible = <T extends { device_id: string }>(real: (...a: never[]) => T) =>
      ((...args: never[]) => {
        const out = real(...args);
        return out.device_id === "corrupt-1" ? { ...out, tas_score: Number.NaN, vehicle_health_score: 140 } : out;
      }) as never;
    const [realTas, realHealth] = [tas.computeTas, vehicleHealth.computeVehicleHealth];
    vi.spyOn(tas, "computeTas").mockImplementation(impossible(realTas));
    vi.spyOn(vehicleHealth, "computeVehicleHealth").mockImplementation(impossible(realHealth));
    for (const [path, body] of [
      ["/api/v1/tas/batch", { device_ids: ["ok-1", "corrupt-1"] }],
      ["/api/v1/scores/batch", { device_ids: ["ok-1", "corrupt-1"] }],
    ] as const) {
      capture();
      const res = await app.fetch(path, { key: t.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      const out = (await res.json()) as { results: { device_id: string; error?: unknown }[] };
      expect(out.results.find((r) => r.device_id === "ok-1")?.error ?? null).toBeNull();
      expect(out.results.find((r) => r.device_id === "corrupt-1")?.error).toBeTruthy();
      const lines = log.records().filter((r) => r.level === "error");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ request_id: res.headers.get("x-request-id"), device_id: "corrupt-1", tenant_id: t.tenantId });
      expect((lines[0]!.err as Record<string, string>).error_class).toBe("OutputInvariantError");
    }
    vi.restoreAllMocks();
  });
});
