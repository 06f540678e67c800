import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { env } from "@/lib/env";
import { allowHeader } from "@/lib/http/bind-route";
import { JSON_BODY_MAX_BYTES } from "@/lib/http/read-input";
import { type Operation, type OperationTag, wireBody } from "@/lib/operations/define-operation";
import { OPERATIONS, operationsAt } from "@/lib/operations/registry";
import { errorBodySchema } from "@/lib/schemas/common";
import { webhookPayloadSchema } from "@/lib/schemas/webhooks";
import { EVENT_TYPES, type EventType } from "@/lib/vocabulary/events";
import { RAW_DATA_MEMBER_SCHEMAS } from "@/lib/schemas/ingest";
import examples from "./examples.json";

/**
 * The OpenAPI 3.1 document, built by one loop over the operation registry: paths, methods, scopes,
 * parameters, bodies, answers and examples all come from the operations' definitions and their zod
 * schemas, so the document says what the server enforces. Linted in CI (tests/unit/openapi/lint.test.ts).
 */

/** CONTRACT: the interface description carries version 1.2.0. */
export const OPENAPI_VERSION = "1.2.0";

const TAGS: Record<OperationTag, string> = {
  Fleet: "The fleet snapshot and the alerts of the detectors.",
  Scores: "Scores of the fleet and of each vehicle, one by one or in batches. Methods: docs/methodology/.",
  Leasing: "Predictions for leasing and insurance: residual value (rule-based and model-based) and mileage forecast. Methods: docs/methodology/.",
  Certificates: "Digital vehicle health certificates: generation, retrieval, and public verification for auditors.",
  Reports: "Emissions and CSRD reports over a date range. Methods: docs/methodology/.",
  Energy: "Finnish electricity spot prices and smart charging.",
  Pricing: "Calculators for security investment and fund commissions.",
  Ingest: "OEM telemetry in bulk.",
  Webhooks: "Changes pushed to you (Standard Webhooks) and the changes feed to read them in order. Guide: docs/webhooks.md.",
};

const integer = { type: "integer" as const };
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed per minute in this limit's window.", schema: integer },
  "RateLimit-Remaining": { description: "Requests left in the window.", schema: integer },
  "RateLimit-Reset": { description: "Seconds until the window frees a request.", schema: integer },
};
const REQUEST_ID_HEADER = { "X-Request-Id": { description: "Identifies this answer in FDP's logs; quote it when reporting a problem.", schema: { type: "string" as const } } };

const EVENT_WORDS: Record<EventType, string> = {
  "alert.created": "a detector raised an alert",
  "alert.updated": "an open alert's problem occurred again (more severely: escalated), a later reading resolved it, or a person acknowledged or dismissed it",
  "certificate.generated": "a vehicle health certificate was issued",
  "certificate.revoked": "a certificate was revoked",
  "device.created": "a vehicle was seen for the first time",
};

const SUCCESS_WORDS = { 200: "OK.", 201: "Created.", 202: "Accepted: done in the background." } as const;

function errorAnswer(description: string, extraHeaders: Record<string, { description: string; schema: object }> = {}): ResponseConfig {
  return {
    description,
    content: { "application/json": { schema: errorBodySchema } },
    headers: { ...REQUEST_ID_HEADER, ...extraHeaders },
  };
}

/** The schema of what a client sends as the body: the body members, or the one member that is the whole body (`bodyMember`). */
function requestBodySchema(op: Operation): z.ZodType {
  const body = op.input.body!;
  return op.bodyMember === undefined ? body : (body.shape[op.bodyMember] as z.ZodType);
}

/** Every answer an operation can give, from what its definition says it does. */
function responsesOf(op: Operation): Record<string, ResponseConfig> {
  const limited = { ...RATE_LIMIT_HEADERS };
  // A key is needed unless the operation is public; only a scoped operation can answer 403 (an `anyKey`
  // operation accepts every valid key).
  const keyed = !("public" in op.access);
  const hasInput = op.pathParams.length > 0 || op.input.query !== undefined || op.input.body !== undefined;
  const success = op.success ?? 200;
  const out: Record<string, ResponseConfig> =
    success === 204
      ? { 204: { description: "Done; no content.", headers: { ...REQUEST_ID_HEADER, ...limited } } }
      : {
          [success]: {
            description: `${SUCCESS_WORDS[success]} Answers to the sandbox key also carry \`_sandbox: true\` (the example is the sandbox's answer without it).`,
            content: op.produces
              ? { [op.produces]: { schema: op.output } }
              : {
                  "application/json": { schema: op.output, ...exampleOf(op) },
                  ...(op.alsoProduces
                    ? {
                        [op.alsoProduces.mediaType]: {
                          // A PDF is bytes (OpenAPI 3.1: a binary string); CSV is text.
                          schema: z
                            .string()
                            .meta(
                              op.alsoProduces.mediaType === "application/pdf"
                                ? { format: "binary", description: op.alsoProduces.selectedBy }
                                : { description: op.alsoProduces.selectedBy },
                            ),
                        },
                      }
                    : {}),
                },
            headers: { ...REQUEST_ID_HEADER, ...limited },
          },
        };
  if (hasInput) out[400] = errorAnswer("Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`).", limited);
  if (keyed) {
    out[401] = errorAnswer(
      op.verifyRequest
        ? "Missing, unknown or revoked API key (`unauthorized`), or a signature that does not verify (`invalid_signature`)."
        : "Missing, unknown or revoked API key.",
      limited,
    );
    if ("scope" in op.access) out[403] = errorAnswer("The key lacks the scope this endpoint needs.", limited);
  }
  if (op.errors?.[404]) out[404] = errorAnswer(op.errors[404], limited);
  out[405] = errorAnswer("The method is not served at this path; `Allow` lists those that are.", {
    Allow: { description: "The methods served at this path.", schema: { type: "string" } },
  });
  if (op.input.body) {
    out[413] = errorAnswer(op.errors?.[413] ?? `The body exceeds ${(op.maxBodyBytes ?? JSON_BODY_MAX_BYTES) / 1048576} MiB.`, limited);
    out[415] = errorAnswer("The body is not sent as `Content-Type: application/json` (UTF-8).", limited);
  }
  if (op.errors?.[422]) out[422] = errorAnswer(op.errors[422], limited);
  out[429] = errorAnswer("Rate limit exceeded; retry after `Retry-After` seconds.", {
    ...limited,
    "Retry-After": { description: "Whole seconds to wait.", schema: integer },
  });
  out[500] = errorAnswer("Server failure; the body never carries internals. Quote `request_id` when reporting it.");
  // Every operation reads the database: while it is unreachable, or when a statement runs past
  // STATEMENT_TIMEOUT_MS, the answer is 503 `service_unavailable` (CONTRACT "Reliability").
  const unavailable =
    "`service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds.";
  out[503] = errorAnswer(op.errors?.[503] ? `${op.errors[503]} Also ${unavailable}` : unavailable, {
    "Retry-After": { description: "Whole seconds to wait.", schema: integer },
  });
  return out;
}

/** The sandbox's answer to the operation's example request (`npm run openapi:examples`). */
function exampleOf(op: Operation): { example?: unknown } {
  const found = (examples as Record<string, { response?: unknown }>)[op.id];
  return found?.response === undefined ? {} : { example: found.response };
}

function accessNote(op: Operation): string {
  if ("scope" in op.access) return `Scope: \`${op.access.scope}\`.`;
  return "anyKey" in op.access ? "Any valid API key, whatever its scopes; limited per key." : "No key needed; limited per client IP.";
}

/**
 * zod-to-openapi writes a nullable literal (`z.literal("oem_bms").nullable()`) as
 * `{type: ["string", "null"], enum: ["oem_bms"]}`: the type admits null but the enum does not, so a
 * validator refuses the null that FDP answers (issue 28: 44 fuzzer findings on `soh_source`). Every
 * schema whose type admits null gets null in its enum too; the document is walked once, in place.
 */
export function admitNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) admitNullInNullableEnums(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  const nullable = o.type === "null" || (Array.isArray(o.type) && o.type.includes("null"));
  if (nullable && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...(o.enum as unknown[]), null];
  for (const value of Object.values(o)) admitNullInNullableEnums(value);
}

let cached: object | undefined;

export function openApiDocument(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: `\`fdp_live_…\` keys from the dashboard or the admin CLI; the public sandbox key is \`${SANDBOX_KEY}\`.`,
  });
  for (const op of OPERATIONS) {
    registry.registerPath({
      operationId: op.id,
      method: op.method.toLowerCase() as "get" | "post" | "delete",
      path: op.path,
      summary: op.summary,
      description: [op.description, accessNote(op), `Methods served at this path: ${allowHeader(operationsAt(op.path).map((o) => o.method))}.`].filter(Boolean).join(" "),
      tags: [op.tag],
      security: "public" in op.access ? [] : [{ bearerAuth: [] }],
      request: {
        ...(op.input.path ? { params: op.input.path } : {}),
        ...(op.input.query ? { query: op.input.query } : {}),
        ...(op.input.body
          ? { body: { required: true, content: { "application/json": { schema: requestBodySchema(op), example: wireBody(op, (op.requestExample as { body?: unknown }).body) } } } }
          : {}),
      },
      responses: responsesOf(op),
    });
  }

  // The events FDP POSTs to a registered endpoint (OpenAPI 3.1 `webhooks`): one entry per event type.
  for (const type of EVENT_TYPES) {
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `on${type.replace(/(^|\.)([a-z])/g, (_m, _dot: string, c: string) => c.toUpperCase())}`,
      // No key travels to the receiver: the signature authenticates FDP.
      security: [],
      summary: `${type}: ${EVENT_WORDS[type]}`,
      description:
        "Sent to each endpoint registered for this type (POST /webhooks), signed per the Standard Webhooks specification: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (any Standard Webhooks library), and dedupe on `webhook-id` (the same on every retry and replay). Guide: docs/webhooks.md.",
      tags: ["Webhooks"],
      request: {
        headers: z.object({
          "webhook-id": z.string().meta({ description: "The event's id (`evt_…`), as in GET /events." }),
          "webhook-timestamp": z.string().meta({ description: "Unix seconds of this attempt." }),
          "webhook-signature": z.string().meta({ description: "`v1,<base64 HMAC-SHA256>`." }),
        }),
        body: { required: true, content: { "application/json": { schema: webhookPayloadSchema(type) } } },
      },
      responses: {
        "2XX": { description: "Received: answer within 15 s, else the delivery is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then failed." },
      },
    });
  }

  // Components referenced from `raw_data`'s description of the members the ingest validates
  // (lib/schemas/ingest.ts); each carries its component name as its zod `meta.id`.
  const components = RAW_DATA_MEMBER_SCHEMAS.map((schema) => ({ type: "schema" as const, schema }));
  cached = new OpenApiGeneratorV31([...registry.definitions, ...components]).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "FDP — Fleet Data Products API",
      version: OPENAPI_VERSION,
      description:
        "Tenant-scoped fleet telemetry data products. Every answer carries `X-Request-Id`; errors use the envelope " +
        "`{error, message, details?, request_id?}`; answers to the sandbox key carry `_sandbox: true`. JSON bodies must be " +
        "I-JSON (RFC 7493: UTF-8, no duplicate member names, no lone surrogates) without NUL characters, at most 32 levels deep.",
      contact: { name: "FDP API support", email: "api@fdp.example", url: `${env().PUBLIC_BASE_URL.replace(/\/$/, "")}/docs` },
      license: { name: "Proprietary: use under the FDP service agreement", url: `${env().PUBLIC_BASE_URL.replace(/\/$/, "")}/docs#license` },
    },
    servers: [{ url: `${env().PUBLIC_BASE_URL.replace(/\/$/, "")}/api/v1`, description: "This FDP deployment." }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });
  admitNullInNullableEnums(cached);
  return cached;
}
