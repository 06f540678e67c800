import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import type { Scope } from "@/lib/auth/key-format";
import { env } from "@/lib/env";
import { alertListSchema, alertsQuerySchema } from "@/lib/schemas/alerts";
import { errorBodySchema } from "@/lib/schemas/common";
import { fleetListSchema, fleetQuerySchema } from "@/lib/schemas/fleet";

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
