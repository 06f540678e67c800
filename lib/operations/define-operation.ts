import { z } from "zod";
import type { Scope } from "@/lib/auth/key-format";
import type { PublicCtx, TenantCtx } from "@/lib/context";

/**
 * One operation of the FDP API, defined once. The route file, the OpenAPI document, the shared
 * security tests and the fuzz tests (and later the MCP tools) are all derived from this object:
 * nothing else declares a path, a method, a scope or an input schema.
 */

type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * Who may call: a key with `scope` (rate-limited per key), any valid key whatever its scopes
 * (`anyKey`: CONTRACT "Scopes by endpoint" — the pricing calculators; rate-limited per key, never 403),
 * or anyone (rate-limited per client IP).
 */
export type Access = { scope: Scope } | { anyKey: true } | { public: true };

export type OperationTag = "Fleet" | "Scores" | "Leasing" | "Certificates" | "Reports" | "Energy" | "Pricing" | "Ingest" | "Webhooks";

/** Where each input field travels over HTTP. The verb sees them merged into one flat object. */
interface InputParts<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodObject> {
  /** Path parameters: exactly the `{names}` of the path template. */
  path?: P;
  /** Query parameters (strings on the wire). */
  query?: Q;
  /** A JSON object body (`Content-Type: application/json`). */
  body?: B;
}

type Shape<T> = T extends z.ZodObject<infer S> ? S : Record<never, never>;
/** The verb's input schema: path, query and body fields side by side. */
export type FlatSchema<P, Q, B> = z.ZodObject<Shape<P> & Shape<Q> & Shape<B>>;
type CtxFor<A extends Access> = A extends { scope: Scope } | { anyKey: true } ? TenantCtx : PublicCtx;

/**
 * What the binding hands a `verifyRequest` hook: the body exactly as received and as parsed (not yet
 * validated), for checks that must come before validation (ingest signatures, record counts).
 */
interface RawRequest {
  rawBody: Uint8Array;
  /** The body's members; with `bodyMember`, that one member holding the whole body. */
  body: Record<string, unknown>;
  headers: Headers;
}

interface OperationDef<A extends Access, P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodObject, O extends z.ZodType, I extends string = string> {
  /** OpenAPI operationId; the MCP catalogue (lib/mcp/tool-catalogue.ts) is keyed by it. */
  id: I;
  method: HttpMethod;
  /** Path relative to `/api/v1`, with `{param}` segments, e.g. `/tas/{device_id}`. */
  path: string;
  access: A;
  summary: string;
  description?: string;
  tag: OperationTag;
  input: InputParts<P, Q, B>;
  /**
   * The whole JSON body (any JSON value: an object, an array) is this one member of `input.body`, which
   * declares no other: for operations that take a source's own documents as they come (the feeds,
   * lib/operations/feeds.ts). The request example's body holds the member, the wire carries its value,
   * and a refusal names fields from the body's root, as the sender sees them.
   */
  bodyMember?: keyof Shape<B> & string;
  /** The success answer's JSON body (or, with `produces`, the schema of the binary body; with `success: 204`, `z.null()`). */
  output: O;
  /**
   * The success answer's status when it is not 200: 201 (created), 202 (accepted, done later) or 204 (no
   * content: the verb returns null and the answer has no body).
   */
  success?: 201 | 202 | 204;
  /** The 200 answer's media type when it is not JSON (the verb then returns a finished Response). */
  produces?: "application/pdf";
  /**
   * A second media type the same operation answers, chosen by a query parameter (the verb then returns
   * a finished Response; `output` stays the JSON schema): CSV on request (emissions), or a PDF that is
   * the default while JSON is on request (CSRD). `selectedBy` says how, for the document.
   */
  alsoProduces?: { mediaType: "text/csv; charset=utf-8" | "application/pdf"; selectedBy: string };
  /** Largest accepted body in bytes (413 beyond); only for operations with a body. */
  maxBodyBytes?: number;
  /** Answers this operation gives besides the ones every operation of its kind gives (400/401/403/405/429/500). */
  errors?: Partial<Record<404 | 413 | 422 | 503, string>>;
  /**
   * `"replica"`: the verb only reads, so with a read replica configured (DATABASE_REPLICA_URL) it may
   * run there, subject to read-your-writes (lib/db/replica.ts, docs/scaling.md). Unset: the primary.
   * Set it only on verbs that never write, whatever their method (a POST that only computes, such as
   * /tas/batch, may carry it; a GET that caches into the database may not).
   */
  reads?: "replica";
  /**
   * `"heavy"`: the verb reads a whole fleet's history or a batch of vehicles, or renders and signs a
   * document, so it takes seconds where an interactive read takes milliseconds. It runs on the heavy pool,
   * at most HEAVY_CONCURRENCY_PER_TENANT at once per tenant (429 with Retry-After beyond), within the
   * instance's heavy slots (lib/operations/budget.ts, docs/scaling.md "Budgets"). Unset: interactive.
   * Set by what the verb reads, not by its input: a fleet score over 7 days of a large fleet costs as
   * much as one over a year of a small one, and a cheap heavy request finishes before the cap matters.
   */
  cost?: "heavy";
  /** Domain checks on the raw request before validation (see RawRequest). Throws a DomainError to refuse. */
  verifyRequest?: (args: { ctx: CtxFor<A> } & RawRequest) => Promise<void>;
  /** The answer as JSON, or (operations that `produce` another media type) a finished Response. */
  verb: (args: { ctx: CtxFor<A>; input: z.output<FlatSchema<P, Q, B>> }) => Promise<z.input<O> | Response>;
  /**
   * A valid request against the sandbox, as a client sends it. The OpenAPI examples are this request
   * and the sandbox's answer to it (lib/openapi/examples.json); the shared tests start from it.
   */
  requestExample: RequestExample<P, Q, B>;
}

interface RequestExample<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodObject> {
  path?: { [K in keyof Shape<P>]: string };
  query?: { [K in keyof Shape<Q>]?: string };
  body?: z.input<B>;
}

export interface Operation<
  A extends Access = Access,
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  I extends string = string,
> extends OperationDef<A, P, Q, B, O, I> {
  /** Path, query and body fields in one schema: what the verb receives, and what an MCP tool would take. */
  inputSchema: FlatSchema<P, Q, B>;
  /** Names of the path parameters, in template order. */
  pathParams: readonly string[];
}

const EMPTY = z.object({});

/** Checks a definition's internal consistency once, at module load, and derives the flat input schema. */
export function defineOperation<
  A extends Access,
  P extends z.ZodObject = z.ZodObject<Record<never, never>>,
  Q extends z.ZodObject = z.ZodObject<Record<never, never>>,
  B extends z.ZodObject = z.ZodObject<Record<never, never>>,
  O extends z.ZodType = z.ZodType,
  I extends string = string,
>(def: OperationDef<A, P, Q, B, O, I>): Operation<A, P, Q, B, O, I> {
  const pathParams = [...def.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  const parts = { path: def.input.path ?? EMPTY, query: def.input.query ?? EMPTY, body: def.input.body ?? EMPTY };
  const declared = Object.keys(parts.path.shape);
  if (declared.join() !== pathParams.join()) {
    throw new Error(`operation ${def.id}: path parameters ${pathParams.join(",")} do not match input.path ${declared.join(",")}`);
  }
  const seen = new Set<string>();
  for (const key of [...declared, ...Object.keys(parts.query.shape), ...Object.keys(parts.body.shape)]) {
    if (seen.has(key)) throw new Error(`operation ${def.id}: input field ${key} is declared twice`);
    seen.add(key);
  }
  if (def.input.body && def.method !== "POST") throw new Error(`operation ${def.id}: a ${def.method} takes no body`);
  if (def.bodyMember !== undefined && Object.keys(parts.body.shape).join() !== def.bodyMember) {
    throw new Error(`operation ${def.id}: bodyMember ${def.bodyMember} must be the one member of input.body`);
  }
  const inputSchema = z.object({ ...parts.path.shape, ...parts.query.shape, ...parts.body.shape }) as FlatSchema<P, Q, B>;
  return { ...def, inputSchema, pathParams };
}

/** The body a client sends for `body`, an input's body members (the request example's): with `bodyMember`, that member's value. */
export function wireBody(op: Pick<Operation, "bodyMember">, body: unknown): unknown {
  return op.bodyMember !== undefined && typeof body === "object" && body !== null ? (body as Record<string, unknown>)[op.bodyMember] : body;
}
