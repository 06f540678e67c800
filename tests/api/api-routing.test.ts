import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowHeader } from "@/lib/http/bind-route";
import { OPERATIONS, operationsAt } from "@/lib/operations/registry";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, OFFLINE_SPOT_PRICE_URL } from "../helpers/fixtures";
import { exampleParts, send, urlFor } from "../helpers/operation-requests";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * The API tests' server answers with the request handler server.ts runs in production and development
 * (lib/http/api-request-handler.ts) and has no router of its own: every operation path must reach its
 * own operation's handlers through the one route matcher. Were the matcher broken (a path left
 * unmatched, or routed to another route), the path would answer the catch-all's 404 or another route's
 * methods, and this file, like every other API test, would fail.
 */
let tdb: TestDatabase;
let app: RouteServer;
let key: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  key = (await createTenantWithKey(tdb.handle.db)).key;
  app = await startRouteServer({
    db: tdb.handle,
    env: { RATE_LIMIT_API_PER_MIN: "100000", RATE_LIMIT_PUBLIC_PER_MIN: "100000", REDIS_URL: undefined, DATABASE_URL: tdb.url, SPOT_PRICE_BASE_URL: OFFLINE_SPOT_PRICE_URL },
  });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

describe.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_, op) => {
  const served = operationsAt(op.path).map((o) => o.method);

  it("OPTIONS lists exactly the methods of the operations at its path (the catch-all would answer 404)", async () => {
    const res = await app.fetch(urlFor(op, exampleParts(op)), { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe(allowHeader(served));
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("its example request is answered by the operation, not by the catch-all", async () => {
    const res = await send(app, op, exampleParts(op), { key });
    const text = await res.text();
    expect(res.status, text).not.toBe(405);
    if (res.status === 404) expect((JSON.parse(text) as { message: string }).message).not.toMatch(/^No endpoint/);
  });
});

describe("what the request handler leaves to Next.js", () => {
  it("a page is not served by the tests' server: it has no router of its own", async () => {
    const res = await app.fetch("/dashboard");
    expect(res.status).toBe(599);
    await res.body?.cancel();
  });

  it("an unserved path under /api is the catch-all's JSON 404, answered by the request handler", async () => {
    const res = await app.fetch("/api/v1/no-such-thing", { key });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe("No endpoint GET /api/v1/no-such-thing. See /api/v1/openapi.json for the endpoints.");
  });
});

describe("request bodies the handler does not read to the end", () => {
  /** POST /tas/batch (1 MiB limit) over `agent`, the body written in chunks; resolves with the answer. */
  function postInChunks(agent: Agent, { chunks, declare }: { chunks: number; declare: boolean }): Promise<{ status: number; connection?: string; socket: unknown }> {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    return new Promise((resolve, reject) => {
      const req = request(`${app.url}/api/v1/tas/batch`, {
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(declare ? { "content-length": String(chunk.length * chunks) } : {}) },
      });
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }));
      });
      req.on("error", reject);
      for (let i = 0; i < chunks; i++) req.write(chunk);
      req.end();
    });
  }

  it("an oversized body announced by Content-Length is a 413 and the connection stays usable", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await postInChunks(agent, { chunks: 5, declare: true });
    expect(first.status).toBe(413);
    const second = await postInChunks(agent, { chunks: 0, declare: true });
    expect(second.status).toBe(400); // an empty body: invalid JSON, answered on the same connection
    expect(second.socket).toBe(first.socket);
    agent.destroy();
  });

  it("an oversized body found while streaming (no Content-Length) is a 413, then the connection closes", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await postInChunks(agent, { chunks: 6, declare: false });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    agent.destroy();
  });
});
