import { describe, expect, it } from "vitest";
import { PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { readBodyLimited } from "@/lib/http/read-body";
import { parseIJsonObject as parseJsonObject } from "@/lib/json/parse-i-json";

/** A streamed (chunked) body without Content-Length; counts how many chunks were pulled. */
function streamed(chunks: number, chunkBytes: number) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(chunkBytes).fill(32));
    },
  });
  const req = new Request("http://x/ingest", { method: "POST", body, duplex: "half" } as RequestInit & { duplex: "half" });
  return { req, pulled: () => pulled };
}

describe("readBodyLimited", () => {
  it("refuses a declared Content-Length above the limit before reading", async () => {
    const req = new Request("http://x", { method: "POST", body: "x".repeat(20), headers: { "content-length": "20" } });
    await expect(readBodyLimited(req, 10)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(req.bodyUsed).toBe(false);
  });
  it("stops reading a streamed body as soon as it passes the limit", async () => {
    const s = streamed(100, 1024);
    await expect(readBodyLimited(s.req, 4096)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(s.pulled()).toBeLessThan(10);
  });
  it("answers a body cut off by the client (connection reset) as a 400, not a server failure", async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
        sent = true;
        controller.enqueue(new Uint8Array(15).fill(32));
      },
    });
    const req = new Request("http://x/ingest", { method: "POST", body, duplex: "half" } as RequestInit & { duplex: "half" });
    const err = await readBodyLimited(req, 4096).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).details?.[0]).toEqual({ field: "(body)", message: "incomplete" });
  });
  it("returns the exact bytes of a body within the limit", async () => {
    const s = streamed(3, 1000);
    expect((await readBodyLimited(s.req, 3000)).byteLength).toBe(3000);
  });
});

describe("parseJsonObject", () => {
  it("accepts an object and refuses anything else with a ValidationError", () => {
    expect(parseJsonObject(new TextEncoder().encode('{"a":1}'))).toEqual({ a: 1 });
    for (const bad of ["", "[1]", "null", "{", '"s"']) {
      expect(() => parseJsonObject(new TextEncoder().encode(bad))).toThrow(ValidationError);
    }
    expect(() => parseJsonObject(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(ValidationError);
  });
});
