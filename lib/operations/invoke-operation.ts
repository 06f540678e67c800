import type { z } from "zod";
import type { Scope } from "@/lib/auth/key-format";
import type { PublicCtx, TenantCtx } from "@/lib/context";
import { ForbiddenError } from "@/lib/errors";
import type { Logger } from "@/lib/log/logger";
import { checkedOutput, parseInput } from "@/lib/validation";
import { runBudgeted } from "./budget";
import type { Operation } from "./define-operation";

/**
 * One call of an operation, whichever surface makes it: the REST binding (lib/http/bind-route.ts) and
 * the MCP tools (lib/mcp/call-tool.ts) both run their operation through here, so both check the same
 * scope, validate with the same parser, run the verb within the same budget and check the same output.
 * What differs stays with the surface: how the caller is authenticated, where the raw input comes from
 * (a URL and a body; a tool's arguments), how the answer or the error is written.
 *
 * The steps, in order: the operation's scope against the caller's key (403) → the raw input, read only
 * now (so REST reads no body for a key without the scope) → validation (400) → the verb within its
 * budget (lib/operations/budget.ts) → the output check (an answer that breaks its schema is a 500).
 */
export interface Invocation {
  op: Operation;
  /** The caller's context: the tenant's for a key, the public one (no tenant) for a public operation. */
  ctx: TenantCtx | PublicCtx;
  /** The scopes of the caller's key; empty for a caller without one (a public REST request). */
  scopes: ReadonlySet<Scope>;
  /** The 403's message on this surface when the key lacks the operation's scope. */
  lacksScope: (scope: Scope) => string;
  /** The input as the surface received it, before validation. Throws a DomainError to refuse it. */
  rawInput: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** What a heavy operation's per-tenant cap counts under (budget.ts heavyCapKey); default the tenant. */
  capKey?: string;
  log: Logger;
  /** Receives the headers of a budget refusal (Retry-After, RateLimit-*), for a surface that sends headers. */
  setHeaders?: (headers: Record<string, string>) => void;
}

interface Invoked {
  /** The validated input (what was asked). */
  input: Record<string, unknown>;
  /** The checked answer, or the finished Response of an operation that answers a file. */
  answer: unknown;
}

/** Runs `op` for the caller (the steps above); every refusal is a thrown DomainError. */
export async function invokeOperation({ op, ctx, scopes, lacksScope, rawInput, capKey, log, setHeaders }: Invocation): Promise<Invoked> {
  if ("scope" in op.access && !scopes.has(op.access.scope)) throw new ForbiddenError(lacksScope(op.access.scope));
  const input = parseInput<z.ZodType<Record<string, unknown>>>(op.inputSchema, await rawInput(), op.bodyMember);
  const result = await runBudgeted({ op, ctx, capKey, log, setHeaders, run: (c) => op.verb({ ctx: c, input: input }) });
  return { input, answer: result instanceof Response ? result : checkedOutput(op.output, result, `the answer of ${op.id}`) };
}
