import { createHash } from "node:crypto";
import Converter from "openapi-to-postmanv2";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import examples from "@/lib/openapi/examples.json";
import { openApiDocument } from "@/lib/openapi/document";
import { wireBody, type Operation } from "@/lib/operations/define-operation";
import { OPERATIONS } from "@/lib/operations/registry";

/** Where the Postman collection lives (clients/postman). */
export const POSTMAN_COLLECTION_PATH = "clients/postman/fdp.postman_collection.json";

/**
 * The Postman collection (v2.1) of FDP's API, made from the OpenAPI document the app serves:
 * openapi-to-postmanv2 converts it (names, descriptions, paths, parameters), then each request gets
 *
 * - the operation's example request (lib/openapi/examples.json: answered by the sandbox, so it succeeds
 *   there), in place of the converter's invented parameter values;
 * - the sandbox key as the collection's `apiKey` variable, sent as a bearer token (none for the public
 *   operations), and `baseUrl`;
 * - contract tests: the documented success status, `X-Request-Id`, the media type, and the JSON answer
 *   checked against the document's schema for that status (`pm.response.to.have.jsonSchema`);
 * - the sandbox's answer as its saved example.
 *
 * A certificate and a webhook made by the collection are named by the requests after them (variables
 * `certificateNumber`, `webhookId`), so a run from top to bottom needs nothing else; deleting the webhook
 * comes last. Deterministic (no random ids), so the committed file can be compared with a fresh one.
 */
export async function postmanCollection(): Promise<PostmanCollection> {
  const document = JSON.parse(JSON.stringify(openApiDocument())) as OpenApiDocument;
  const converted = await convert(document);
  const byRoute = new Map<string, ConvertedItem>();
  const walk = (items: ConvertedNode[]) => {
    for (const node of items) {
      if ("item" in node) walk(node.item);
      else byRoute.set(`${node.request.method} /${node.request.url.path.map((s) => s.replace(/^:(.+)$/, "{$1}")).join("/")}`, node);
    }
  };
  walk(converted.item);
  // The registry's order, with deletions last: what a run creates is still there for the requests that read it.
  const ordered = [...OPERATIONS.filter((op) => op.method !== "DELETE"), ...OPERATIONS.filter((op) => op.method === "DELETE")];
  const folders = new Map<string, PostmanItem[]>();
  for (const op of ordered) {
    const found = byRoute.get(`${op.method} ${op.path}`);
    if (!found) throw new Error(`openapi-to-postmanv2 made no request for ${op.method} ${op.path}`);
    const folder = folderOf(op.path);
    folders.set(folder, [...(folders.get(folder) ?? []), requestItem(op, found, document)]);
  }
  const item = [...folders].map(([name, items]) => ({ name, item: items }));
  return {
    info: {
      _postman_id: uuidFrom("fdp-postman-collection"),
      name: converted.info.name,
      description: `${converted.info.description?.content ?? ""}\n\nGenerated from GET /api/v1/openapi.json by \`npm run postman:generate\`. Set \`baseUrl\` to your deployment's \`https://…/api/v1\` and \`apiKey\` to a key from the dashboard; the defaults are a local server and the public sandbox key, which reads the sandbox fleet but may not manage webhooks (run that folder with a key of your own). Each request's tests check the documented status, media type and JSON schema.`,
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{apiKey}}", type: "string" }] },
    variable: [
      { key: "baseUrl", value: "http://localhost:3000/api/v1", type: "string" },
      { key: "apiKey", value: SANDBOX_KEY, type: "string" },
      { key: "certificateNumber", value: "", type: "string" },
      { key: "webhookId", value: "", type: "string" },
    ],
    item,
  };
}

/** The folder of an operation's path: the capabilities as the README lists them. */
const WEBHOOKS_FOLDER = "Webhooks and events (a key of your own: the sandbox key may not manage webhooks)";
function folderOf(path: string): string {
  if (/^\/(fleet|alerts)\b/.test(path)) return "Fleet and alerts";
  if (path.startsWith("/oem/")) return "Ingest";
  if (path.includes("residual-value") || path.startsWith("/predict/")) return "Leasing";
  if (/^\/(scores|tas|vehicles)\//.test(path)) return "Scores";
  if (path.startsWith("/certificates/")) return "Certificates";
  if (path.startsWith("/reports/")) return "Reports";
  if (/^\/(energy|charging)\//.test(path)) return "Energy";
  if (path.startsWith("/pricing/")) return "Calculators";
  if (/^\/(webhooks|events)\b/.test(path)) return WEBHOOKS_FOLDER;
  throw new Error(`no Postman folder for ${path}`);
}

/**
 * Example values that are times relative to when the examples were made: each run computes them before
 * the request (a pre-request script), so that the collection does not age (a charging deadline must lie
 * ahead, a replay start within the events kept).
 */
const RELATIVE_TIMES: Partial<Record<string, { in: "query" | "body"; name: string; expression: string }>> = {
  getChargingRecommendation: { in: "query", name: "deadline", expression: "new Date(Date.now() + 12 * 3600 * 1000).toISOString()" },
  replayWebhook: { in: "body", name: "since", expression: "new Date(Date.now() - 24 * 3600 * 1000).toISOString()" },
};

function requestItem(op: Operation, converted: ConvertedItem, document: OpenApiDocument): PostmanItem {
  const example = (examples as Record<string, { request?: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown }; status: number; response?: unknown }>)[
    op.id
  ];
  const status = op.success ?? 200;
  const responses = document.paths[op.path]?.[op.method.toLowerCase()]?.responses ?? {};
  const content = responses[String(status)]?.content ?? {};
  const mediaType = Object.keys(content)[0] ?? null;
  const pathValue = (name: string) =>
    name === "certificate_number"
      ? "{{certificateNumber}}"
      : name === "webhook_id"
        ? "{{webhookId}}"
        : (example?.request?.path?.[name] ?? (op.requestExample as { path?: Record<string, string> }).path?.[name] ?? "");
  const segments = op.path
    .split("/")
    .slice(1)
    .map((s) => s.replace(/^\{([a-z_]+)\}$/, (_m, name: string) => pathValue(name)));
  const relative = RELATIVE_TIMES[op.id];
  const variable = relative ? `{{${relative.name}}}` : "";
  const query = Object.entries((op.requestExample as { query?: Record<string, string> }).query ?? {}).map(([key, value]) => ({
    key,
    value: relative?.in === "query" && relative.name === key ? variable : String(value),
  }));
  const exampleBody = wireBody(op, (op.requestExample as { body?: unknown }).body);
  const body = op.input.body ? JSON.stringify(relative?.in === "body" ? { ...(exampleBody as Record<string, unknown>), [relative.name]: variable } : exampleBody, null, 2) : null;
  const rawUrl = `{{baseUrl}}/${segments.join("/")}${query.length > 0 ? `?${query.map((q) => `${q.key}=${q.value.startsWith("{{") ? q.value : encodeURIComponent(q.value)}`).join("&")}` : ""}`;
  const request: PostmanRequest = {
    method: op.method,
    header: [...(mediaType ? [{ key: "Accept", value: mediaType }] : []), ...(body ? [{ key: "Content-Type", value: "application/json" }] : [])],
    url: { raw: rawUrl, host: ["{{baseUrl}}"], path: segments, ...(query.length > 0 ? { query } : {}) },
    ...(body ? { body: { mode: "raw", raw: body, options: { raw: { language: "json" } } } } : {}),
    ...("public" in op.access ? { auth: { type: "noauth" } } : {}),
    description: converted.request.description?.content ?? "",
  };
  const schema = mediaType === "application/json" ? jsonSchemaOf(content[mediaType]?.schema, document) : null;
  return {
    name: `${op.id}: ${converted.name}`,
    event: [
      ...(relative
        ? [
            {
              listen: "prerequest" as const,
              script: { type: "text/javascript" as const, exec: [`pm.collectionVariables.set(${JSON.stringify(relative.name)}, ${relative.expression});`] },
            },
          ]
        : []),
      { listen: "test" as const, script: { type: "text/javascript" as const, exec: testScript(op, status, mediaType, schema) } },
    ],
    request,
    response:
      example?.response === undefined
        ? []
        : [
            {
              name: "The sandbox's answer",
              originalRequest: request,
              code: example.status,
              header: [{ key: "Content-Type", value: "application/json" }],
              body: JSON.stringify(example.response, null, 2),
            },
          ],
  };
}

/** The contract tests of one request, as Postman's sandbox runs them (newman included). */
function testScript(op: Operation, status: number, mediaType: string | null, schema: unknown): string[] {
  const lines = [
    `pm.test("answers ${status}", function () { pm.response.to.have.status(${status}); });`,
    `pm.test("carries X-Request-Id", function () { pm.expect(pm.response.headers.get("X-Request-Id")).to.match(/^req_[0-9a-f]{32}$/); });`,
  ];
  if (mediaType) lines.push(`pm.test("is ${mediaType}", function () { pm.expect(pm.response.headers.get("Content-Type")).to.include(${JSON.stringify(mediaType)}); });`);
  if (mediaType === "application/pdf") lines.push(`pm.test("is a PDF file", function () { pm.expect(pm.response.stream.slice(0, 5).toString()).to.equal("%PDF-"); });`);
  if (schema) {
    lines.push(`var schema = ${JSON.stringify(schema)};`);
    lines.push(`pm.test("matches the documented schema", function () { pm.response.to.have.jsonSchema(schema); });`);
  }
  if (op.id === "generateCertificate") lines.push(`pm.collectionVariables.set("certificateNumber", pm.response.json().certificate_number);`);
  if (op.id === "createWebhook") lines.push(`pm.collectionVariables.set("webhookId", pm.response.json().id);`);
  return lines;
}

/** The schema with every `$ref` written out and only the keywords a JSON Schema validator needs (no formats: validators differ on them). */
function jsonSchemaOf(schema: unknown, document: OpenApiDocument, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => jsonSchemaOf(s, document, seen));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) {
    const name = ref.replace("#/components/schemas/", "");
    if (seen.includes(name)) return {}; // a recursive schema: the inner level is not checked
    return jsonSchemaOf(document.components.schemas[name], document, [...seen, name]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (["format", "example", "examples", "description", "title", "deprecated", "readOnly", "writeOnly", "externalDocs", "$schema", "id"].includes(key)) continue;
    // `properties` maps names to schemas: each value is a schema, the names are kept as they are.
    out[key] =
      key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, jsonSchemaOf(v, document, seen)])) : jsonSchemaOf(value, document, seen);
  }
  return out;
}

function convert(document: OpenApiDocument): Promise<{ info: { name: string; description?: { content: string } }; item: ConvertedNode[] }> {
  return new Promise((resolve, reject) => {
    Converter.convert({ type: "json", data: document }, { folderStrategy: "Paths", parametersResolution: "Example" }, (err, result) => {
      const output = result?.result ? result.output?.[0]?.data : undefined;
      if (err) reject(err instanceof Error ? err : new Error(`openapi-to-postmanv2: ${JSON.stringify(err)}`));
      else if (!output) reject(new Error(`openapi-to-postmanv2 made no collection: ${result?.reason ?? "no reason given"}`));
      else resolve(output as never);
    });
  });
}

/** A UUID (version 4 layout) from a name: the same collection gets the same id. */
function uuidFrom(name: string): string {
  const h = createHash("sha256").update(name).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}
interface ConvertedItem {
  name: string;
  request: { method: string; url: { path: string[] }; description?: { content: string } };
}
type ConvertedNode = ConvertedItem | { name: string; item: ConvertedNode[] };
interface PostmanRequest {
  method: string;
  header: { key: string; value: string }[];
  url: { raw: string; host: string[]; path: string[]; query?: { key: string; value: string }[] };
  body?: { mode: "raw"; raw: string; options: { raw: { language: "json" } } };
  auth?: { type: "noauth" };
  description: string;
}
interface PostmanItem {
  name: string;
  event: { listen: "prerequest" | "test"; script: { type: "text/javascript"; exec: string[] } }[];
  request: PostmanRequest;
  response: unknown[];
}
interface PostmanCollection {
  info: { _postman_id: string; name: string; description: string; schema: string };
  auth: unknown;
  variable: { key: string; value: string; type: "string" }[];
  item: { name: string; item: PostmanItem[] }[];
}
