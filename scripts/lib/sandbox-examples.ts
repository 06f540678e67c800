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

export async function collectSandboxExamples(): Promise<Record<string, OperationExample>> {
  const out: Record<string, OperationExample> = {};
  for (const op of OPERATIONS) {
    const { url, init, params } = requestFor(op);
    const res = await bindRoute(op.path)[op.method](new Request(url, init), { params: Promise.resolve(params) });
    const { _sandbox: _flag, ...response } = (await res.json()) as Record<string, unknown>;
    out[op.id] = { request: op.requestExample as OperationExample["request"], status: res.status, response };
  }
  return out;
}
