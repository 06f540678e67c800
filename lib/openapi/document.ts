import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { Scope } from "@/lib/auth/key-format";
import { env } from "@/lib/env";
import { alertListSchema, alertsQuerySchema } from "@/lib/schemas/alerts";
import { errorBodySchema } from "@/lib/schemas/common";
import { fleetListSchema, fleetQuerySchema } from "@/lib/schemas/fleet";
import { INGEST_MAX_BYTES, INGEST_MAX_VEHICLES, ingestBodySchema, ingestResponseSchema } from "@/lib/schemas/ingest";

/** CONTRACT: the interface description carries version 1.2.0. */
export const OPENAPI_VERSION = "1.2.0";

const errorContent = { "application/json": { schema: errorBodySchema } };
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed in the window.", schema: { type: "integer" as const } },
  "RateLimit-Remaining": { description: "Requests left in the window.", schema: { type: "integer" as const } },
  "RateLimit-Reset": { description: "Seconds until the window frees a request.", schema: { type: "integer" as const } },
};

/** The error answers every keyed endpoint can give. */
function keyedErrors(extra: Record<number, string> = {}) {
  const base: Record<number, string> = {
    400: "Invalid request: a malformed or out-of-range parameter (see `details`).",
    401: "Missing, unknown or revoked API key.",
    403: "The key lacks the scope this endpoint needs.",
    429: "Rate limit exceeded; see Retry-After.",
    500: "Server failure; the body never carries internals.",
    ...extra,
  };
  return Object.fromEntries(
    Object.entries(base).map(([status, description]) => [status, { description, content: errorContent, headers: RATE_LIMIT_HEADERS }]),
  );
}

interface KeyedGet {
  path: string;
  summary: string;
  scope: Scope;
  query?: z.ZodObject;
  response: z.ZodType;
  tag: string;
}

function registerKeyedGet(registry: OpenAPIRegistry, op: KeyedGet): void {
  registry.registerPath({
    method: "get",
    path: op.path,
    summary: op.summary,
    tags: [op.tag],
    security: [{ bearerAuth: [] }],
    description: `Scope: \`${op.scope}\`.`,
    request: op.query ? { query: op.query } : undefined,
    responses: {
      200: { description: "OK", content: { "application/json": { schema: op.response } }, headers: RATE_LIMIT_HEADERS },
      ...keyedErrors(),
    },
  });
}

let cached: object | undefined;

export function openApiDocument(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "`fdp_live_…` keys from the dashboard or the admin CLI; the public sandbox key is `fdp_sandbox_3f6c0a1e9b7d4c25`.",
  });
  registerKeyedGet(registry, {
    path: "/fleet",
    summary: "Fleet snapshot: the latest state of each vehicle",
    scope: "fleet:read",
    query: fleetQuerySchema,
    response: fleetListSchema,
    tag: "Fleet",
  });
  registerKeyedGet(registry, {
    path: "/alerts",
    summary: "Alerts raised by the detectors, newest first",
    scope: "fleet:read",
    query: alertsQuerySchema,
    response: alertListSchema,
    tag: "Fleet",
  });

  registry.registerPath({
    method: "post",
    path: "/oem/ingest",
    summary: "Bulk OEM telemetry ingest: upsert devices, history and fleet snapshot",
    tags: ["Ingest"],
    security: [{ bearerAuth: [] }],
    description:
      `Scope: \`ingest:write\`. At most ${INGEST_MAX_VEHICLES} records and ${INGEST_MAX_BYTES / 1048576} MiB (413 beyond). ` +
      "The whole payload is validated first; any invalid record gives 400 naming its index and field, and nothing is stored. " +
      "Optional signatures with the tenant's ingest secret: header `X-FDP-Signature: sha256=<hex>` over the raw body, or " +
      "`hmac_signature` over the RFC 8785 canonical JSON of the body without it; a signature that does not verify gives 401 " +
      "`invalid_signature`. Re-sending a payload changes nothing; an older record never overwrites a newer snapshot. " +
      "With the sandbox key the payload is validated and nothing is stored.",
    request: {
      headers: z.object({ "X-FDP-Signature": z.string().optional().meta({ description: "`sha256=<lowercase hex HMAC-SHA256 of the raw body>`" }) }),
      body: { required: true, content: { "application/json": { schema: ingestBodySchema } } },
    },
    responses: {
      200: { description: "Accepted and committed (read-your-writes).", content: { "application/json": { schema: ingestResponseSchema } }, headers: RATE_LIMIT_HEADERS },
      ...keyedErrors({ 401: "Missing, unknown or revoked key (`unauthorized`), or a signature that does not verify (`invalid_signature`).", 413: "More than 10,000 records or 10 MiB." }),
    },
  });

  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "FDP — Fleet Data Products API",
      version: OPENAPI_VERSION,
      description:
        "Tenant-scoped fleet telemetry data products. Every answer carries `X-Request-Id`; errors use the envelope `{error, message, details?, request_id?}`; answers to the sandbox key carry `_sandbox: true`.",
    },
    servers: [{ url: `${env().PUBLIC_BASE_URL.replace(/\/$/, "")}/api/v1` }],
  });
  return cached;
}
