import { createApiKey } from "@/lib/api-keys/create-api-key";
import { SANDBOX_KEY, SANDBOX_SCOPES, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { getDb } from "@/lib/db/client";
import { bindRoute } from "@/lib/http/bind-route";
import { type Operation, wireBody } from "@/lib/operations/define-operation";
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

function requestFor(op: Operation, key: string): { url: string; init: RequestInit; params: Record<string, string> } {
  const ex = op.requestExample as OperationExample["request"];
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(ex.path?.[name] ?? ""));
  const query = new URLSearchParams(ex.query ?? {}).toString();
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, "x-fdp-client-ip": "127.0.0.1" };
  if (ex.body !== undefined) headers["content-type"] = "application/json";
  return {
    url: `http://localhost/api/v1${path}${query ? `?${query}` : ""}`,
    init: { method: op.method, headers, body: ex.body === undefined ? undefined : JSON.stringify(wireBody(op, ex.body)) },
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

/** The operations that take a webhook id are asked about the webhook the registration example has just made. */
function withRegisteredWebhook(op: Operation, registered: string | undefined): Operation {
  const ex = op.requestExample as OperationExample["request"];
  if (!op.pathParams.includes("webhook_id") || registered === undefined) return op;
  return { ...op, requestExample: { ...ex, path: { ...ex.path, webhook_id: registered } } } as Operation;
}

/**
 * The key an example is asked with: the sandbox key, or for a scope the sandbox key lacks
 * (`webhooks:write`: CONTRACT, the public key cannot register webhooks) a live key of the sandbox
 * tenant with that scope, made for the examples.
 */
async function keyFor(op: Operation, liveKeys: Map<string, string>): Promise<string> {
  if (!("scope" in op.access) || SANDBOX_SCOPES.includes(op.access.scope)) return SANDBOX_KEY;
  const scope = op.access.scope;
  let key = liveKeys.get(scope);
  if (!key) {
    key = (await createApiKey({ ctx: { db: await getDb() }, input: { tenantId: SANDBOX_TENANT_ID, name: "OpenAPI examples", scopes: [scope] } })).key;
    liveKeys.set(scope, key);
  }
  return key;
}

export async function collectSandboxExamples(): Promise<Record<string, OperationExample>> {
  const out: Record<string, OperationExample> = {};
  let issued: string | undefined;
  let webhook: string | undefined;
  const liveKeys = new Map<string, string>();
  for (const registered of OPERATIONS) {
    const op = withRegisteredWebhook(withIssuedCertificate(registered, issued), webhook);
    const { url, init, params } = requestFor(op, await keyFor(op, liveKeys));
    const res = await bindRoute(op.path)[op.method](new Request(url, init), { params: Promise.resolve(params) });
    if (res.status === 204) {
      out[op.id] = { request: registered.requestExample as OperationExample["request"], status: res.status, response: null };
      continue;
    }
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
    if (op.id === "createWebhook" && res.status === 201) webhook = String(response.id);
    // The request shown is the operation's own (with the placeholder number), as the document states it.
    out[op.id] = { request: registered.requestExample as OperationExample["request"], status: res.status, response };
  }
  return out;
}
