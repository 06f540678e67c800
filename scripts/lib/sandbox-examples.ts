import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { bindRoute } from "@/lib/http/bind-route";
import type { Operation } from "@/lib/operations/define-operation";
import { OPERATIONS } from "@/lib/operations/registry";

/**
 * Each operation's example request (its `requestExample`) answered by the app itself with the
 * sandbox key, through the same route binding a client reaches: what the OpenAPI document shows as
 * examples (lib/openapi/examples.json, written by `npm run openapi:examples`). The process's database
 * (lib/db/client.ts getDb) must hold a seeded sandbox.
 */
export interface OperationExample {
  request: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown };
  status: number;
  response: unknown;
}

function requestFor(op: Operation): { url: string; init: RequestInit; params: Record<string, string> } {
  const ex = op.requestExample as OperationExample["request"];
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(ex.path?.[name] ?? ""));
  const query = new URLSearchParams(ex.query ?? {}).toString();
  const headers: Record<string, string> = { authorization: `Bearer ${SANDBOX_KEY}`, "x-fdp-client-ip": "127.0.0.1" };
  if (ex.body !== undefined) headers["content-type"] = "application/json";
  return {
    url: `http://localhost/api/v1${path}${query ? `?${query}` : ""}`,
    init: { method: op.method, headers, body: ex.body === undefined ? undefined : JSON.stringify(ex.body) },
    params: ex.path ?? {},
  };
}

/**
 * A certificate number exists only once a certificate is issued: the operations that take one are
 * asked about the certificate the generation example has just issued (its number replaces the
 * placeholder in the request the example shows).
 */
function withIssuedCertificate(op: Operation, issued: string | undefined): Operation {
  const ex = op.requestExample as OperationExample["request"];
  if (!op.pathParams.includes("certificate_number") || issued === undefined) return op;
  return { ...op, requestExample: { ...ex, path: { ...ex.path, certificate_number: issued } } } as Operation;
}

export async function collectSandboxExamples(): Promise<Record<string, OperationExample>> {
  const out: Record<string, OperationExample> = {};
  let issued: string | undefined;
  for (const registered of OPERATIONS) {
    const op = withIssuedCertificate(registered, issued);
    const { url, init, params } = requestFor(op);
    const res = await bindRoute(op.path)[op.method](new Request(url, init), { params: Promise.resolve(params) });
    if (op.produces) {
      // A binary answer (the certificate PDF): the example records its type and size, not the bytes.
      const bytes = (await res.arrayBuffer()).byteLength;
      out[op.id] = { request: registered.requestExample as OperationExample["request"], status: res.status, response: { content_type: res.headers.get("content-type"), bytes } };
      continue;
    }
    const { _sandbox: _flag, ...response } = (await res.json()) as Record<string, unknown>;
    if (op.id === "generateCertificate" && res.status === 200) {
      issued = String(response.certificate_number);
      // The PDF is tens of kilobytes of base64: the document shows its start.
      response.pdf_base64 = `${String(response.pdf_base64).slice(0, 64)}…`;
    }
    // The request shown is the operation's own (with the placeholder number), as the document states it.
    out[op.id] = { request: registered.requestExample as OperationExample["request"], status: res.status, response };
  }
  return out;
}
