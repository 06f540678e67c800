import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { allowHeader } from "@/lib/http/bind-route";
import { OPERATIONS, operationsAt } from "@/lib/operations/registry";
import { wireBody } from "@/lib/operations/define-operation";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { scrapeMetrics } from "../helpers/metrics-scrape";
import { rawRequest, requestText, type RawAnswer } from "../helpers/raw-http";

/**
 * The built app behind server.ts: every answer under /api/ comes from FDP in the CONTRACT envelope
 * with X-Request-Id, including what Next.js or Node would otherwise answer themselves (the probes of
 * issue 7: `%FF`, TRACE/PROPFIND, OPTIONS, trailing and doubled slashes, dot segments, bad framing).
 */
const METRICS_TOKEN = "edge-metrics-token-0123456789ab";
let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let app: AppProcess;
const auth = { Authorization: `Bearer ${SANDBOX_KEY}` };

beforeAll(async () => {
  pg = await createPostgresDatabase("fdp_it_edge", "seeded");
  app = await startApp({
    mode: "start",
    env: { DATABASE_URL: pg.url, REDIS_URL: undefined, RATE_LIMIT_API_PER_MIN: "10000", RATE_LIMIT_AUTH_PER_MIN: "10000", METRICS_TOKEN },
  });
});

afterAll(async () => {
  await app?.stop();
  await pg?.drop();
});

const send = (method: string, target: string, headers: Record<string, string> = {}, body = "") => rawRequest(app.url, requestText(method, target, headers, body));

function expectEnvelope(res: RawAnswer, status: number, code: string): { error: string; message: string; request_id: string } {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
  expect(res.headers.location).toBeUndefined();
  const body = JSON.parse(res.body) as { error: string; message: string; request_id: string };
  expect(body.error).toBe(code);
  expect(body.request_id).toBe(res.headers["x-request-id"]);
  return body;
}

describe("server.ts answers in the envelope what Next.js would not", () => {
  it("malformed percent-encoding: 400", async () => {
    expectEnvelope(await send("GET", "/api/v1/tas/%FF", auth), 400, "invalid_request");
    expectEnvelope(await send("GET", "/api/v1/fleet?limit=%E0%A4%A", auth), 400, "invalid_request");
  });

  it("TRACE and PROPFIND: 405 with Allow on a served path, 404 on an unknown one", async () => {
    const trace = await send("TRACE", "/api/v1/fleet");
    expectEnvelope(trace, 405, "invalid_request");
    expect(trace.headers.allow).toBe("GET, HEAD, OPTIONS");
    const propfind = await send("PROPFIND", "/api/v1/tas/batch", auth);
    expectEnvelope(propfind, 405, "invalid_request");
    expect(propfind.headers.allow).toBe("POST, OPTIONS");
    expectEnvelope(await send("PROPFIND", "/api/v1/nowhere"), 404, "not_found");
  });

  it("OPTIONS lists only the methods served; PUT on a GET route is a 405 in the envelope", async () => {
    const options = await send("OPTIONS", "/api/v1/tas/sbx-001");
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(options.headers["x-request-id"]).toMatch(/^req_/);
    const put = await send("PUT", "/api/v1/tas/sbx-001", auth);
    expectEnvelope(put, 405, "invalid_request");
    expect(put.headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("trailing slashes, doubled slashes and dot segments: 404, never a redirect or another endpoint", async () => {
    expectEnvelope(await send("GET", "/api/v1/fleet/", auth), 404, "not_found");
    expectEnvelope(await send("GET", "/api/v1//fleet", auth), 404, "not_found");
    expectEnvelope(await send("GET", "//api/v1/fleet", auth), 404, "not_found");
    expectEnvelope(await send("GET", "/api/v1/tas/%2e%2e/fleet", auth), 404, "not_found");
    expectEnvelope(await send("GET", "/api/v1/tas/../fleet", auth), 404, "not_found");
  });

  it("path parameters are validated before any lookup: NUL and over-long ids are 400 naming device_id", async () => {
    for (const id of ["a%00b", "x".repeat(201)]) {
      const body = expectEnvelope(await send("GET", `/api/v1/tas/${id}`, auth), 400, "invalid_request") as unknown as { details: { field: string }[]; message: string };
      expect(body.details.map((d) => d.field)).toEqual(["device_id"]);
      expect(body.message).not.toContain("x".repeat(129));
    }
  });

  it("JSON bodies need application/json: text/plain, form-encoded and no content type are 415", async () => {
    const body = JSON.stringify({ device_ids: ["sbx-001"] });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", undefined]) {
      const headers = { ...auth, ...(type ? { "Content-Type": type } : {}) };
      expectEnvelope(await send("POST", "/api/v1/tas/batch", headers, body), 415, "unsupported_media_type");
    }
    const dup = await send("POST", "/api/v1/tas/batch", { ...auth, "Content-Type": "application/json" }, '{"device_ids":["sbx-001"],"device_ids":["sbx-002"]}');
    expectEnvelope(dup, 400, "invalid_request");
  });

  it("an absolute-form target is judged by its path; CONNECT is refused in the envelope", async () => {
    expectEnvelope(await send("GET", "http://localhost/api/v1/fleet/", auth), 404, "not_found");
    const ok = await send("GET", "http://localhost/api/v1/fleet?limit=1", auth);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ count: 1, _sandbox: true });
    const connect = await rawRequest(app.url, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expectEnvelope(connect, 405, "invalid_request");
  });

  it("the hostile client's findings: dot paths outside /api, RSC headers, Upgrade, OPTIONS *, no Host, Expect", async () => {
    expectEnvelope(await send("GET", "/x/../api/v1/tas/%FF", auth), 400, "invalid_request");
    expectEnvelope(await send("TRACE", "/x/../api/v1/fleet"), 404, "not_found");
    expectEnvelope(await send("GET", "/x/../api/v1/fleet/", auth), 404, "not_found");
    // Next.js's router headers are dropped for the API: no redirect to ?_rsc.
    const rsc = await send("GET", "/api/v1/fleet?limit=1", { ...auth, RSC: "1", "Next-Router-Prefetch": "1" });
    expect(rsc.status).toBe(200);
    expect(rsc.headers.location).toBeUndefined();
    // An h2c offer or a WebSocket handshake is served as the plain request it also is. (`close` among the
    // Connection tokens: the raw client reads until the server closes, and idle connections stay open 65 s.)
    const h2c = await send("GET", "/api/v1/fleet?limit=1", { ...auth, Connection: "Upgrade, HTTP2-Settings, close", Upgrade: "h2c", "HTTP2-Settings": "AAMAAABkAARAAAAAAAIAAAAA" });
    expect(h2c.status).toBe(200);
    const ws = await send("GET", "/api/health", { Connection: "Upgrade, close", Upgrade: "websocket" });
    expect(JSON.parse(ws.body)).toEqual({ status: "ok", details: { mqtt_bridges: [] } });
    const star = await rawRequest(app.url, "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(star.status).toBe(204);
    expect(star.headers["x-request-id"]).toMatch(/^req_/);
    expectEnvelope(await rawRequest(app.url, "GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 400, "invalid_request");
    expectEnvelope(await rawRequest(app.url, "GET /api/v1/fleet HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, "invalid_request");
    const expectFoo = await send("GET", "/api/v1/nope", { Expect: "foo" });
    expect(expectFoo.status).toBe(417);
    expect(JSON.parse(expectFoo.body)).toMatchObject({ error: "invalid_request" });
  });

  it("a broken request pipelined behind a valid one never replaces the valid one's answer", async () => {
    // A request that takes a while (3,000 records to validate), still being served when the junk arrives.
    const vehicles = Array.from({ length: 3000 }, (_, i) => ({ vin: `PIPE${String(i).padStart(6, "0")}`, timestamp: new Date().toISOString(), speed_kmh: 40 }));
    const first = requestText("POST", "/api/v1/oem/ingest", { ...auth, "Content-Type": "application/json", Connection: "keep-alive" }, JSON.stringify({ vehicles }));
    const res = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(app.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(first);
        setTimeout(() => socket.write("BROKEN\r\n\r\n"), 5);
      });
      let out = "";
      socket.on("data", (d: Buffer) => (out += d.toString("utf8")));
      socket.on("error", reject);
      socket.on("close", () => resolve(out));
    });
    const answers = res.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[0]).toContain('"accepted":true');
    expect(answers[1]).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("a request Node cannot parse is still answered in the envelope with X-Request-Id", async () => {
    const res = await rawRequest(app.url, "GET /api/v1/fleet HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n");
    expectEnvelope(res, 400, "invalid_request");
  });

  it("says it keeps an idle keep-alive connection 65 s (Keep-Alive: timeout=65) and serves the next request on it", async () => {
    // That it really does past Node's default (5 s, closed 1 s later) is tests/integration/connections.test.ts's
    // connection idle through the slow clients' timeouts: no wait here.
    const { hostname, port } = new URL(app.url);
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    const request = (connection: string) => `GET /api/v1/fleet?limit=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth.Authorization}\r\nConnection: ${connection}\r\n\r\n`;
    socket.write(request("keep-alive"));
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.write(request("close"));
    await ended;
    const text = Buffer.concat(chunks).toString("latin1");
    expect(text.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(2);
    expect(text).toMatch(/^keep-alive: timeout=65\r$/im);
  });

  it("HEAD answers like GET without a body; a well-formed request still reaches its route", async () => {
    const head = await send("HEAD", "/api/v1/fleet", auth);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    const get = await send("GET", "/api/v1/fleet?limit=1", auth);
    expect(get.status).toBe(200);
    expect(JSON.parse(get.body)).toMatchObject({ count: 1, _sandbox: true });
  });
});

/**
 * server.ts serves the API itself (lib/http/api-request-handler.ts), with the handlers the route files
 * export: the same answers, compressed for a client that accepts gzip.
 */
describe("the operations' routes served by server.ts directly", () => {
  it("a large JSON answer is gzipped for a client that accepts it, and is the same JSON as sent plainly", async () => {
    const { gunzipSync } = await import("node:zlib");
    const plain = await fetch(`${app.url}/api/v1/fleet?limit=50`, { headers: { ...auth, "Accept-Encoding": "identity" } });
    const zipped = await rawRequest(app.url, requestText("GET", "/api/v1/fleet?limit=50", { ...auth, "Accept-Encoding": "br;q=1, gzip;q=0.5" }));
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    const unzipped = JSON.parse(gunzipSync(zipped.raw).toString("utf8")) as { data: unknown[] };
    const sent = (await plain.json()) as { data: unknown[] };
    expect(unzipped.data).toEqual(sent.data);
    expect(sent.data.length).toBeGreaterThan(5);
    // gzip refused with q=0, and small answers (under 1 KB) go as they are.
    const refused = await rawRequest(app.url, requestText("GET", "/api/v1/fleet?limit=50", { ...auth, "Accept-Encoding": "gzip;q=0" }));
    expect(refused.headers["content-encoding"]).toBeUndefined();
    const small = await rawRequest(app.url, requestText("GET", "/api/v1/tas/no-such-device", { ...auth, "Accept-Encoding": "gzip" }));
    expect(small.status).toBe(404);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("a JSON body streams to the handler: an ingest is stored and an oversized body is a 413 in the envelope", async () => {
    const ok = await fetch(`${app.url}/api/v1/oem/ingest`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ vehicles: [{ vin: "DIRECTPATH1", speed_kmh: 10 }] }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ accepted: true, device_count: 1 });
    const huge = await fetch(`${app.url}/api/v1/oem/ingest`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ vehicles: [], pad: "x".repeat(12 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: string }).error).toBe("payload_too_large");
  });
});

/**
 * The shared security checks (tests/transport/operations.security.test.ts) run in process through the same
 * request handler; here a few of them run over every operation of the registry against the built
 * server (lib/http/api-request-handler.ts in server.ts), so that the process around it is the real one
 * too.
 */
describe("every operation of the registry, served by the built server", () => {
  const UNKNOWN_CERTIFICATE = "FDP-CERT-20200101-NONE0";
  const pathOf = (path: string, id: string, certificate = UNKNOWN_CERTIFICATE) => `/api/v1${path.replace("{device_id}", id).replace("{certificate_number}", certificate)}`;

  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))("%s: 401, 404, 400 and 405 in the envelope", async (_, op) => {
    const target = pathOf(op.path, "no-such-device");
    const body = op.input.body ? JSON.stringify(wireBody(op, (op.requestExample as { body?: unknown }).body)) : "";
    const json: Record<string, string> = op.input.body ? { "Content-Type": "application/json" } : {};
    const keyed = !("public" in op.access);
    if (keyed) expectEnvelope(await send(op.method, target, json, body), 401, "unauthorized");
    if (op.pathParams.includes("device_id")) {
      expectEnvelope(await send(op.method, target, auth), 404, "not_found");
      expectEnvelope(await send(op.method, pathOf(op.path, "a%00b"), auth), 400, "invalid_request");
    }
    if (op.pathParams.includes("certificate_number")) {
      expectEnvelope(await send(op.method, target, keyed ? auth : {}), 404, "not_found");
      expectEnvelope(await send(op.method, pathOf(op.path, "", "FDP-CERT-2026%00-X"), keyed ? auth : {}), 400, "invalid_request");
    }
    // PATCH: no operation is served with it, whereas a path may serve several methods (/webhooks/{id}: GET and DELETE).
    const wrong = await send("PATCH", target, auth);
    expectEnvelope(wrong, 405, "invalid_request");
    expect(wrong.headers.allow).toBe(allowHeader(operationsAt(op.path).map((o) => o.method)));
    expect((JSON.parse(wrong.body) as { _sandbox?: boolean })._sandbox).toBe(true);
  });
});

describe("GET /api/metrics on the built server (docs/metrics.md)", () => {
  it("is a 401 without the token; with it, the exposition, which counts a request once it is answered", async () => {
    const denied = await send("GET", "/api/metrics");
    expectEnvelope(denied, 401, "unauthorized");
    const scrape = () => scrapeMetrics((path, init) => fetch(`${app.url}${path}`, init), METRICS_TOKEN);
    const fleet = OPERATIONS.find((op) => op.method === "GET" && op.path === "/fleet")!.id;
    const served = (s: Awaited<ReturnType<typeof scrape>>) => s.value("fdp_http_requests_total", { operation: fleet, method: "GET", status: "200" });
    const before = await scrape();
    expect((await send("GET", "/api/v1/fleet?limit=1", auth)).status).toBe(200);
    const after = await scrape();
    expect(served(after) - served(before)).toBe(1);
    expect(after.value("fdp_database_up")).toBe(1);
    expect(after.sum("fdp_db_connections", { pool: "fdp" })).toBeGreaterThanOrEqual(1);
  });
});
