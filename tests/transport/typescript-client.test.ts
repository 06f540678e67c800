import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createFdpClient, eventPages, FdpApiError, orThrow, signedIngest, type FdpClient } from "@/clients/typescript/src/index";
import { getDbHandle, openPostgresDatabase, setDbHandle } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { tenantRowCounts } from "../helpers/counts";
import { createTenantWithKey } from "../helpers/fixtures";
import { tour } from "@/clients/typescript/examples/tour";
import { startRouteServer, unlimitedEdgeEnv, type RouteServer } from "../helpers/route-server";

/**
 * The typed client (clients/typescript) against the production request handler: what its README shows
 * a partner, run for real. Its types come from the OpenAPI document (tests/unit/clients/ checks they
 * match it), so this file compiling is half the test: a renamed member or path fails `tsc`.
 */

let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
let fdp: FdpClient;
const now = Date.now();
const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db, { name: "Client tenant" });
  app = await startRouteServer({ db: tdb.handle, env: unlimitedEdgeEnv(tdb.url) });
  fdp = createFdpClient({ baseUrl: app.url, apiKey: t.key });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

describe("the typed client against the app", () => {
  it("ingests, then reads the fleet, a vehicle's TAS and the alerts, typed end to end", async () => {
    const ingested = await orThrow(
      fdp.POST("/oem/ingest", {
        body: {
          vehicles: [
            { vin: "CLIENTVIN00000001", timestamp: at(30), odometer_km: 12_000, speed_kmh: 0, soc_percent: 80 },
            { vin: "CLIENTVIN00000001", timestamp: at(20), odometer_km: 12_010, speed_kmh: 60, soc_percent: 78 },
            { vin: "CLIENTVIN00000002", timestamp: at(10), odometer_km: 5_000, speed_kmh: 0 },
          ],
        },
      }),
    );
    expect(ingested).toEqual({ accepted: true, device_count: 2, tenant_id: t.tenantId });

    const fleet = await orThrow(fdp.GET("/fleet", { params: { query: { limit: 10 } } }));
    // A SPEC record's vehicle is `oem-<vin>` (CONTRACT "OEM ingest").
    expect(fleet.data.map((v) => v.device_id)).toEqual(["oem-CLIENTVIN00000001", "oem-CLIENTVIN00000002"]);
    expect(fleet.data[0]?.vehicle_speed).toBe(60);

    const tas = await orThrow(fdp.GET("/tas/{device_id}", { params: { path: { device_id: "oem-CLIENTVIN00000001" } } }));
    expect(tas.device_id).toBe("oem-CLIENTVIN00000001");

    const alerts = await orThrow(fdp.GET("/alerts", { params: { query: { severity: "CRITICAL" } } }));
    expect(Array.isArray(alerts.data)).toBe(true);
  });

  it("signs an ingest with the tenant's secret (timestamped header): accepted once and stored; a changed body is refused", async () => {
    const signer = await createTenantWithKey(tdb.handle.db, { name: "Signing tenant" });
    await tdb.handle.db.execute(sql`update tenants set require_signed_ingest = true where id = ${signer.tenantId}`);
    const client = createFdpClient({ baseUrl: app.url, apiKey: signer.key });
    const body = { vehicles: [{ vin: "CLIENTSIGNED00001", timestamp: at(4), odometer_km: 10 }] };
    await expect(orThrow(client.POST("/oem/ingest", { body }))).rejects.toMatchObject({ status: 401, code: "invalid_signature" });

    const signed = await signedIngest(body, signer.ingestSecret);
    expect(signed.headers["X-FDP-Signature"]).toMatch(/^t=\d{10},sha256=[0-9a-f]{64}$/);
    expect(await orThrow(client.POST("/oem/ingest", signed))).toMatchObject({ accepted: true, device_count: 1 });
    expect((await tenantRowCounts(tdb.handle.db, signer.tenantId)).telemetry).toBe(1);
    // The same signature again, and the signature of one body sent with another: refused, nothing stored.
    await expect(orThrow(client.POST("/oem/ingest", signed))).rejects.toMatchObject({ code: "invalid_signature" });
    const other = await signedIngest({ vehicles: [{ ...body.vehicles[0]!, odometer_km: 11 }] }, signer.ingestSecret);
    await expect(
      orThrow(client.POST("/oem/ingest", { ...other, bodySerializer: () => JSON.stringify({ vehicles: [{ ...body.vehicles[0]!, odometer_km: 99 }] }) })),
    ).rejects.toMatchObject({
      code: "invalid_signature",
    });
    expect((await tenantRowCounts(tdb.handle.db, signer.tenantId)).telemetry).toBe(1);
  });

  it("reads a CSV report as text", async () => {
    const today = new Date(now).toISOString().slice(0, 10);
    const { data, response } = await fdp.GET("/reports/emissions", { params: { query: { start_date: today, end_date: today, format: "csv" } }, parseAs: "text" });
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(data?.split("\n")[0]).toMatch(/^device_id,/);
  });

  it("turns every error answer into an FdpApiError with the CONTRACT's code and the request id", async () => {
    const missing = await orThrow(fdp.GET("/tas/{device_id}", { params: { path: { device_id: "no-such-vehicle" } } })).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FdpApiError);
    expect(missing).toMatchObject({ status: 404, code: "not_found", requestId: expect.stringMatching(/^req_[0-9a-f]{32}$/) });

    // A body the operation refuses: the envelope's details name the member.
    const invalid = await orThrow(fdp.POST("/oem/ingest", { body: { vehicles: [{ vin: "CLIENTVIN00000003", timestamp: "yesterday" }] } })).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: "invalid_request" });
    expect((invalid as FdpApiError).details?.map((d) => d.field)).toContain("vehicles.0.timestamp");

    const stranger = createFdpClient({ baseUrl: app.url, apiKey: "fdp_live_nottherightkey0000000000000000" });
    await expect(orThrow(stranger.GET("/fleet"))).rejects.toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("pages through /events by next_cursor until has_more is false", async () => {
    const all = await orThrow(fdp.GET("/events", { params: { query: { limit: 500 } } }));
    expect(all.data.length).toBeGreaterThanOrEqual(2); // device.created for both vehicles
    const paged = [];
    for await (const page of eventPages(fdp, { limit: 1 })) paged.push(...page.data);
    expect(paged.map((e) => e.id)).toEqual(all.data.map((e) => e.id));
  });

  it("waits what Retry-After says on a 503 and sends the request again; a wait past its bound is answered at once", async () => {
    // The database unreachable: FDP answers an ingest 503 with Retry-After (5 s), having stored nothing.
    // The database comes back while the client waits, and the same request, sent again, is stored once.
    const serving = await getDbHandle();
    const dead = await openPostgresDatabase("postgres://postgres@127.0.0.1:1/none", { connectTimeoutSeconds: 1 });
    setDbHandle(dead);
    const retries: { status: number; retryAfterSeconds: number; at: number }[] = [];
    const patient = createFdpClient({
      baseUrl: app.url,
      apiKey: t.key,
      onRetry: ({ status, retryAfterSeconds }) => {
        retries.push({ status, retryAfterSeconds, at: Date.now() });
        setDbHandle(serving);
      },
    });
    try {
      const stored = await orThrow(patient.POST("/oem/ingest", { body: { vehicles: [{ vin: "CLIENTVIN00000004", timestamp: at(5), odometer_km: 100 }] } }));
      const answered = Date.now();
      expect(stored.device_count).toBe(1);
      expect((await orThrow(fdp.GET("/fleet"))).data.map((v) => v.device_id)).toContain("oem-CLIENTVIN00000004");
      expect(retries.map((r) => [r.status, r.retryAfterSeconds])).toEqual([[503, 5]]);
      expect(answered - retries[0]!.at).toBeGreaterThanOrEqual(5_000);
    } finally {
      setDbHandle(serving);
      await dead.close();
    }

    // A key limited to 1 request a minute: the second is a 429 whose Retry-After (up to 60 s) is past
    // this client's bound of 1 s, so it is answered at once with when to retry.
    const limited = await createTenantWithKey(tdb.handle.db, { rateLimitPerMin: 1 });
    const impatient = createFdpClient({ baseUrl: app.url, apiKey: limited.key, maxRetryDelaySeconds: 1, onRetry: () => retries.push({ status: 0, retryAfterSeconds: 0, at: 0 }) });
    await orThrow(impatient.GET("/fleet"));
    const started = Date.now();
    const refused = await orThrow(impatient.GET("/fleet")).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
    expect((refused as FdpApiError).retryAfterSeconds).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(retries).toHaveLength(1);
  });
});

describe("the client's tour (clients/typescript/examples/tour.ts)", () => {
  it("calls every capability of the API once, each answered with success", async () => {
    const steps = await tour(fdp);
    expect(steps.map((s) => s.capability)).toEqual([
      "ingest",
      "Traccar feed",
      "Tesla feed",
      "fleet",
      "alerts",
      "fleet risk",
      "green fleet",
      "vehicle health",
      "battery snapshot",
      "end-of-lease summary",
      "scores batch",
      "total asset score",
      "TAS batch",
      "residual value (rules)",
      "residual value (model)",
      "mileage forecast",
      "spot prices",
      "charging plan",
      "emissions report",
      "emissions CSV",
      "CSRD report",
      "Gordon–Loeb",
      "carried interest",
      "certificate",
      "certificate PDF",
      "verification",
      "webhook created",
      "webhooks",
      "webhook",
      "webhook replay",
      "events",
      "webhook deleted",
    ]);
    expect(steps.find((s) => s.capability === "verification")?.summary).toBe("status valid");
    expect(steps.find((s) => s.capability === "ingest")?.summary).toBe("1 vehicle(s) accepted");
    const { openApiDocument } = await import("@/lib/openapi/document");
    const source = readFileSync(path.join(process.cwd(), "clients/typescript/examples/tour.ts"), "utf8");
    // Every path of the document is called by the tour (/events through the client's eventPages).
    const called = (p: string) => source.includes(`"${p}"`) || (p === "/events" && source.includes("eventPages(fdp"));
    expect(Object.keys((openApiDocument() as { paths: object }).paths).filter((p) => !called(p))).toEqual([]);
  });
});

describe("with the environment's own fetch settings", () => {
  it("keeps the key out of the URL and sends it as a bearer token only", async () => {
    const seen: Request[] = [];
    const spying = createFdpClient({
      baseUrl: `${app.url}/`,
      apiKey: t.key,
      fetch: async (request) => {
        seen.push(request.clone());
        return fetch(request);
      },
    });
    await orThrow(spying.GET("/fleet"));
    expect(seen[0]?.url).toBe(`${app.url}/api/v1/fleet`);
    expect(seen[0]?.headers.get("authorization")).toBe(`Bearer ${t.key}`);
    resetEnvCache();
  });
});
