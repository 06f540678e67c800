import { describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { connectAnswer, expectationFailedResponse, guardApiRequest, isApiTarget, malformedHttpAnswer, originForm } from "@/lib/http/edge-guard";

const guard = (method: string, url: string) => guardApiRequest({ method, url, requestIdHeader: null });

async function envelope(res: Response | null, status: number, code: string) {
  expect(res).not.toBeNull();
  expect(res!.status).toBe(status);
  expect(res!.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  const body = (await res!.json()) as { error: string; message: string; request_id: string };
  expect(body.error).toBe(code);
  expect(body.request_id).toBe(res!.headers.get("x-request-id"));
  return body;
}

describe("guardApiRequest", () => {
  it("leaves well-formed /api requests and every non-/api request to Next.js", () => {
    for (const [m, u] of [
      ["GET", "/api/v1/fleet?limit=5"],
      ["POST", "/api/v1/tas/batch"],
      ["HEAD", "/api/v1/tas/sbx-001"],
      ["OPTIONS", "/api/v1/fleet"],
      ["DELETE", "/api/v1/fleet"],
      ["GET", "/api/v1/tas/a%20b"],
      ["GET", "/dashboard/"],
      ["TRACE", "/docs"],
      ["GET", "/apiary/%FF"],
    ]) {
      expect(guard(m!, u!), `${m} ${u}`).toBeNull();
    }
  });

  it("answers malformed percent-encoding in the path or the query with 400", async () => {
    for (const u of ["/api/v1/tas/%FF", "/api/v1/tas/%ED%A0%80", "/api/v1/fleet?limit=%E0%A4%A", "/api/v1/fleet?%zz=1", "/api/v1/tas/%"]) {
      const body = await envelope(guard("GET", u), 400, "invalid_request");
      expect(body.message).toMatch(/percent-encoding/);
    }
  });

  it("answers trailing, doubled and dot segments with 404 instead of a redirect or a resolved path", async () => {
    expect((await envelope(guard("GET", "/api/v1/fleet/"), 404, "not_found")).message).toContain("did you mean /api/v1/fleet?");
    expect((await envelope(guard("GET", "/api/v1//fleet"), 404, "not_found")).message).toContain("did you mean /api/v1/fleet?");
    expect((await envelope(guard("POST", "//api/v1/tas/batch"), 404, "not_found")).message).toContain("/api/v1/tas/batch");
    await envelope(guard("GET", "/api/"), 404, "not_found");
    await envelope(guard("GET", "/api"), 404, "not_found");
    for (const u of ["/api/v1/tas/%2e%2e/fleet", "/api/v1/tas/./x", "/api/v1/tas/%2E"]) await envelope(guard("GET", u), 404, "not_found");
  });

  it("answers methods no route handler can serve: 405 with Allow on a served path, 404 elsewhere", async () => {
    const trace = guard("TRACE", "/api/v1/fleet");
    await envelope(trace, 405, "invalid_request");
    expect(trace!.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const propfind = guard("PROPFIND", "/api/v1/tas/batch");
    await envelope(propfind, 405, "invalid_request");
    expect(propfind!.headers.get("allow")).toBe("POST, OPTIONS");
    expect(guard("MKCOL", "/api/v1/tas/sbx-001")!.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(guard("LINK", "/api/health")!.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    // next-auth's catch-all: a served path whatever lies below /api/auth/.
    expect(guard("TRACE", "/api/auth/session")!.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(guard("GET", "/api/auth/session")).toBeNull();
    await envelope(guard("PROPFIND", "/api/v1/nowhere"), 404, "not_found");
  });

  it("judges every reading of the path: dot segments and percent-encoding cannot smuggle a request past it", async () => {
    for (const u of ["/x/../api/v1/fleet", "/x/%2e%2e/api/v1/fleet", "/_next/static/../../api/v1/fleet", "/%61pi/v1/fleet", "/x/../api/v1/tas/%FF"]) {
      expect(isApiTarget(u), u).toBe(true);
    }
    expect(isApiTarget("/dashboard")).toBe(false);
    expect(isApiTarget("/apiary")).toBe(false);
    await envelope(guard("GET", "/x/../api/v1/fleet"), 404, "not_found");
    await envelope(guard("TRACE", "/x/../api/v1/fleet"), 404, "not_found");
    await envelope(guard("GET", "/x/../api/v1/tas/%FF"), 400, "invalid_request");
    await envelope(guard("GET", "/%61pi/v1/fleet/"), 404, "not_found");
    expect(guard("GET", "/%61pi/v1/fleet")).toBeNull(); // the same resource as /api/v1/fleet
  });

  it("answers the asterisk form and a Host-less HTTP/1.1 request itself", async () => {
    const options = guard("OPTIONS", "*");
    expect(options?.status).toBe(204);
    expect(options?.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    await envelope(guard("GET", "*"), 400, "invalid_request");
    await envelope(guardApiRequest({ method: "GET", url: "/dashboard", missingHost: true }), 400, "invalid_request");
    const expect417 = expectationFailedResponse(null);
    expect(expect417.status).toBe(417);
    expect(((await expect417.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("judges an absolute-form target by its path", async () => {
    expect(originForm("http://api.fdp.example/api/v1/fleet?limit=1")).toBe("/api/v1/fleet?limit=1");
    expect(originForm("https://h")).toBe("/");
    expect(originForm("/api/v1/fleet")).toBe("/api/v1/fleet");
    await envelope(guard("GET", "http://api.fdp.example/api/v1/fleet/"), 404, "not_found");
    await envelope(guard("TRACE", "http://h:3000/api/v1/fleet"), 405, "invalid_request");
    expect(guard("GET", "http://h/api/v1/fleet?limit=1")).toBeNull();
  });

  it("marks its answers to the sandbox key with _sandbox: true, and only those", async () => {
    const sandbox = guardApiRequest({ method: "GET", url: "/api/v1/fleet/", authorization: `Bearer ${SANDBOX_KEY}` });
    expect(((await sandbox!.json()) as { _sandbox?: boolean })._sandbox).toBe(true);
    const live = guardApiRequest({ method: "GET", url: "/api/v1/fleet/", authorization: `Bearer fdp_live_${"a".repeat(40)}` });
    expect(((await live!.json()) as { _sandbox?: boolean })._sandbox).toBeUndefined();
  });

  it("keeps a caller's well-formed request id", () => {
    expect(guardApiRequest({ method: "TRACE", url: "/api/v1/fleet", requestIdHeader: "trace-abc-123456" })!.headers.get("x-request-id")).toBe("trace-abc-123456");
  });
});

describe("connectAnswer", () => {
  it("refuses CONNECT with a 405 in the envelope", () => {
    const [head, body] = connectAnswer().split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(head).toMatch(/\r\nAllow: /);
    expect(JSON.parse(body!)).toMatchObject({ error: "invalid_request" });
  });
});

describe("malformedHttpAnswer", () => {
  it("is a complete HTTP/1.1 answer in the envelope with X-Request-Id, closing the connection", () => {
    const raw = malformedHttpAnswer({ code: "HPE_INVALID_CONTENT_LENGTH" });
    const [head, body] = raw.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
    const id = head!.match(/X-Request-Id: (req_[0-9a-f]{32})/)?.[1];
    expect(JSON.parse(body!)).toMatchObject({ error: "invalid_request", request_id: id });
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body!)}`);
  });
});
