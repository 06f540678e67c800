import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openApiDocument } from "@/lib/openapi/document";

/**
 * Checks an answer against the published OpenAPI document (lib/openapi/document.ts, served at
 * /api/v1/openapi.json) rather than against the zod schemas it is generated from: a client generated
 * from the document, or a fuzzer driven by it, sees exactly this. The document is OpenAPI 3.1, whose
 * schemas are JSON Schema 2020-12, so Ajv's 2020 dialect reads them as they are; `strict: false`
 * because OpenAPI adds keywords (`example`) that are not JSON Schema's.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };

const DOC_ID = "https://fdp.example/openapi.json";
let ajv: Ajv2020 | undefined;

function validatorHost(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...openApiDocument(), $id: DOC_ID });
  return ajv;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/**
 * The errors of `body` against the document's schema for `method path` answering `status` as
 * `application/json` (null when valid). A status the document does not list for the operation is an
 * error of its own: a client could not know it.
 */
export function openApiResponseErrors(method: string, path: string, status: number, body: unknown): string[] | null {
  const doc = openApiDocument() as Doc;
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) return [`${method} ${path} is not in the document`];
  const response = op.responses[String(status)];
  if (!response) return [`${method} ${path} does not document the status ${status}`];
  if (!response.content?.["application/json"]?.schema) return [`${method} ${path} ${status} has no application/json schema`];
  const ref = `${DOC_ID}#/${pointer("paths", path, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")}`;
  const host = validatorHost();
  const validate = host.getSchema(ref) ?? host.compile({ $ref: ref });
  if (validate(body)) return null;
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
}
