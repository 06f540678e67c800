import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { writeAnswer } from "@/lib/http/write-answer";
import { jsonBodyOf, jsonResponse } from "@/lib/http/respond";

/**
 * jsonResponse serialises once and keeps the text, so that writeAnswer (lib/http/write-answer.ts) writes
 * it without reading the Response's stream back; the Response itself is unchanged for Next.js.
 */
function fakeRes() {
  const headers: Record<string, string> = {};
  let body: Buffer | string | undefined;
  return {
    statusCode: 0,
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return this;
    },
    end(chunk?: Buffer | string) {
      body = chunk;
      return this;
    },
    headers,
    body: () => body,
  };
}

const page = { data: Array.from({ length: 50 }, (_, i) => ({ device_id: `dev-${i}`, device_name: `Vehicle é ${i}`, lat: 48.1 + i / 100 })), count: 50, tenant_id: "t-1" };

describe("jsonResponse", () => {
  it("answers what Response.json answers: same body, status, Content-Type; the envelope's headers and sandbox marker", async () => {
    const res = jsonResponse(page, 201, { requestId: "req-1", isSandbox: true, headers: { "RateLimit-Remaining": "7" } });
    const reference = Response.json({ ...page, _sandbox: true }, { status: 201 });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe(reference.headers.get("content-type"));
    expect(res.headers.get("x-request-id")).toBe("req-1");
    expect(res.headers.get("ratelimit-remaining")).toBe("7");
    const kept = jsonBodyOf(res);
    expect(kept).toBe(await reference.text());
    expect(await res.text()).toBe(kept);
    // Once the stream was read, the kept bytes are no longer offered.
    expect(jsonBodyOf(res)).toBeNull();
  });

  it("throws like Response.json for a value without JSON text", () => {
    expect(() => Response.json(undefined)).toThrow(TypeError);
    expect(() => jsonResponse(undefined, 200, { requestId: "r", isSandbox: false })).toThrow(TypeError);
  });

  it("offers no kept bytes for a Response it did not make", () => {
    expect(jsonBodyOf(Response.json(page))).toBeNull();
    const made = jsonResponse(page, 200, { requestId: "r", isSandbox: false });
    expect(jsonBodyOf(new Response(made.body, { status: 405, headers: made.headers }))).toBeNull();
  });
});

describe("writeAnswer", () => {
  const decor = { requestId: "req-2", isSandbox: false, headers: { "RateLimit-Limit": "60" } };

  it("writes a jsonResponse's kept text without reading its stream, gzip when accepted", async () => {
    const plain = fakeRes();
    const a = jsonResponse(page, 200, decor);
    await writeAnswer({ headers: {} }, plain as never, a, false);
    expect(a.bodyUsed).toBe(false);
    expect(JSON.parse(String(plain.body()))).toEqual(page);
    // Bytes, not characters (the page has non-ASCII names).
    expect(plain.headers["content-length"]).toBe(String(Buffer.byteLength(String(plain.body()))));
    expect(Number(plain.headers["content-length"])).toBeGreaterThan(String(plain.body()).length);
    expect(plain.headers["x-request-id"]).toBe("req-2");
    expect(plain.headers["ratelimit-limit"]).toBe("60");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");

    const zipped = fakeRes();
    await writeAnswer({ headers: { "accept-encoding": "gzip" } }, zipped as never, jsonResponse(page, 200, decor), false);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(zipped.body() as Buffer).toString("utf8"))).toEqual(page);
    expect(zipped.headers["content-length"]).toBe(String(zipped.body()!.length));
  });

  it("compresses a large answer (off the main thread) to the same JSON", async () => {
    const big = { data: Array.from({ length: 4000 }, (_, i) => ({ device_id: `dev-${i}`, device_name: `Vehicle ${i}`, lat: 48.1 + i / 1e4 })), count: 4000 };
    const res = jsonResponse(big, 200, decor);
    expect(jsonBodyOf(res)!.length).toBeGreaterThan(256 * 1024);
    const zipped = fakeRes();
    await writeAnswer({ headers: { "accept-encoding": "gzip, deflate" } }, zipped as never, res, false);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(zipped.body() as Buffer).toString("utf8"))).toEqual(big);
  });

  it("reads back any other Response, and sends no body for HEAD", async () => {
    const csv = fakeRes();
    await writeAnswer({ headers: {} }, csv as never, new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv" } }), false);
    expect(String(csv.body())).toBe("a,b\n1,2\n");
    const head = fakeRes();
    await writeAnswer({ headers: {} }, head as never, jsonResponse(page, 200, decor), true);
    expect(head.body()).toBeUndefined();
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
  });
});
