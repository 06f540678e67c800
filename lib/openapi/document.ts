import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { Scope } from "@/lib/auth/key-format";
import { env } from "@/lib/env";
import { alertListSchema, alertsQuerySchema } from "@/lib/schemas/alerts";
import { errorBodySchema } from "@/lib/schemas/common";
import { fleetListSchema, fleetQuerySchema } from "@/lib/schemas/fleet";
import {
  batteryHealthSnapshotSchema,
  deviceIdParamsSchema,
  eolSummarySchema,
  scoresBatchRequestSchema,
  scoresBatchResponseSchema,
  tasBatchRequestSchema,
  tasBatchResponseSchema,
  tasScoreSchema,
  vehicleHealthScoreSchema,
} from "@/lib/schemas/scores-device";
import { fleetRiskScoreSchema, fleetScoreQuerySchema, greenFleetScoreSchema } from "@/lib/schemas/scores-fleet";
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

interface KeyedOperation {
  method?: "get" | "post";
  path: string;
  summary: string;
  scope: Scope;
  query?: z.ZodObject;
  /** Path parameters (`{device_id}`): the operation also answers 404 for unknown or foreign devices. */
  params?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  tag: string;
}

function registerKeyedGet(registry: OpenAPIRegistry, op: KeyedOperation): void {
  registry.registerPath({
    method: op.method ?? "get",
    path: op.path,
    summary: op.summary,
    tags: [op.tag],
    security: [{ bearerAuth: [] }],
    description: `Scope: \`${op.scope}\`.`,
    request: {
      ...(op.query ? { query: op.query } : {}),
      ...(op.params ? { params: op.params } : {}),
      ...(op.body ? { body: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    },
    responses: {
      200: { description: "OK", content: { "application/json": { schema: op.response } }, headers: RATE_LIMIT_HEADERS },
      ...keyedErrors(op.params ? { 404: "Unknown device, or one of another tenant." } : {}),
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

  registerKeyedGet(registry, {
    path: "/scores/fleet-risk",
    summary: "Fleet risk score (0–100, higher = riskier) over a period",
    scope: "scores:read",
    query: fleetScoreQuerySchema,
    response: fleetRiskScoreSchema,
    tag: "Scores",
  });
  registerKeyedGet(registry, {
    path: "/scores/green-fleet",
    summary: "Green fleet score (0–100) over a period: EV share, CO₂ intensity, energy efficiency",
    scope: "scores:read",
    query: fleetScoreQuerySchema,
    response: greenFleetScoreSchema,
    tag: "Scores",
  });

  const device = { params: deviceIdParamsSchema, scope: "scores:read" as const, tag: "Scores" };
  registerKeyedGet(registry, { ...device, path: "/scores/vehicle-health/{device_id}", summary: "Vehicle health score (0–100, higher = healthier)", response: vehicleHealthScoreSchema });
  registerKeyedGet(registry, { ...device, path: "/vehicles/{device_id}/battery-health-snapshot", summary: "Battery health snapshot", response: batteryHealthSnapshotSchema });
  registerKeyedGet(registry, { ...device, path: "/vehicles/{device_id}/eol-summary", summary: "End-of-life summary with condition grade A–F", response: eolSummarySchema });
  registerKeyedGet(registry, { ...device, path: "/tas/{device_id}", summary: "Total Asset Score with grade A–F and pillars", response: tasScoreSchema });
  registerKeyedGet(registry, {
    method: "post",
    path: "/scores/batch",
    summary: "Up to 100 devices, any of the five scores; a failed device does not fail the batch",
    scope: "scores:read",
    body: scoresBatchRequestSchema,
    response: scoresBatchResponseSchema,
    tag: "Scores",
  });
  registerKeyedGet(registry, {
    method: "post",
    path: "/tas/batch",
    summary: "Total Asset Score for up to 1000 devices",
    scope: "scores:read",
    body: tasBatchRequestSchema,
    response: tasBatchResponseSchema,
    tag: "Scores",
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
