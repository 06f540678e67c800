import { z } from "zod";
import type { Operation } from "@/lib/operations/define-operation";
import { errorBodySchema } from "@/lib/schemas/common";

/**
 * The JSON Schemas an MCP client sees for a tool, derived from the operation's zod schemas (the same
 * ones that validate REST requests and answers).
 *
 * - Input: the operation's flat input (path, query and body fields side by side), less the fields the
 *   tool fixes. Query parameters are strings on the wire of REST; their `meta` already says what they
 *   hold (`type: "integer"`, a range, a default), so the tool advertises that type and the call
 *   converts a number or boolean argument back to its query-string form before the one validation.
 * - Output: the operation's answer, rooted at an object as MCP requires (zod puts named schemas in
 *   `$defs` and the root behind a `$ref`), with the sandbox marker the answers to the sandbox key carry.
 */

type JsonSchema = Record<string, unknown>;

const TO_JSON_SCHEMA = { target: "draft-2020-12", unrepresentable: "any" } as const;

/** Drops what means nothing to a client: a string `pattern` on a value advertised as number or boolean. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) out[key] = tidy(value);
  if (out.type !== undefined && out.type !== "string" && "pattern" in out) delete out.pattern;
  // `additionalProperties: {}` (any value) is spelled `true`: the same contract, stated.
  if (isEmptyObject(out.additionalProperties)) out.additionalProperties = true;
  if (Array.isArray(out.type)) return typeArrayAsAnyOf(out);
  // OpenAPI's `example` (singular) is `examples` (an array) in JSON Schema 2020-12.
  if ("example" in out) {
    if (!("examples" in out)) out.examples = [out.example];
    delete out.example;
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** Keywords that describe the member rather than constrain its value: they stay outside the branches. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

/**
 * `{"type": ["number", "null"], "minimum": 0}` → `{"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}`.
 * Both are JSON Schema, but clients that map tool schemas onto a single-`type` dialect (Gemini's
 * function declarations, OpenAPI 3.0 subsets) reject or mangle the array form; the MCP Inspector's
 * portability check flags it. A null member is still null, not absent. Constraints go into every
 * non-null branch: each keyword applies only to values of its own type, so the meaning is unchanged.
 */
function typeArrayAsAnyOf(node: JsonSchema): JsonSchema {
  const outer: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") continue;
    if (ANNOTATIONS.has(key)) outer[key] = value;
    else constraints[key] = value;
  }
  return { ...outer, anyOf: (node.type as string[]).map((type) => (type === "null" ? { type } : { type, ...constraints })) };
}

/** A root `{"$ref": "#/$defs/X", "$defs": {…}}` becomes X's own object, keeping `$defs` for inner references. */
function rootedAtObject(schema: JsonSchema): JsonSchema {
  const ref = typeof schema.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  const defs = schema.$defs as Record<string, JsonSchema> | undefined;
  if (!ref || !defs?.[ref]) return schema;
  const { $ref: _ref, ...rest } = schema;
  return { ...rest, ...defs[ref] };
}

export function toolInputJsonSchema(op: Operation, fixed: Readonly<Record<string, string>> = {}): JsonSchema {
  const shape = Object.fromEntries(Object.entries(op.inputSchema.shape).filter(([name]) => !(name in fixed)));
  const schema = tidy(z.toJSONSchema(z.object(shape), { ...TO_JSON_SCHEMA, io: "input" })) as JsonSchema;
  return { ...schema, type: "object", properties: schema.properties ?? {}, additionalProperties: false };
}

const SANDBOX_MARKER_SCHEMA = {
  type: "boolean",
  const: true,
  description: "Present (true) on answers to the public sandbox key: the data is synthetic.",
} as const;

/**
 * The tool's `outputSchema`: the REST twin's answer (with the sandbox marker) or, on an `isError`
 * result, the CONTRACT error body. Both are structured content (CONTRACT "Settled details"), and MCP
 * clients check structured content against this schema even on errors (the SDK's Client does), so
 * the schema names both: an object that is one or the other.
 */
export function toolOutputJsonSchema(op: Operation): JsonSchema {
  const answer = rootedAtObject(tidy(z.toJSONSchema(op.output, { ...TO_JSON_SCHEMA, io: "output" })) as JsonSchema);
  if (answer.type !== "object") throw new Error(`operation ${op.id}: an MCP tool's answer must be a JSON object`);
  const { $schema, $defs: answerDefs, ...answerBranch } = answer;
  const error = rootedAtObject(tidy(z.toJSONSchema(errorBodySchema, { ...TO_JSON_SCHEMA, io: "output" })) as JsonSchema);
  const { $schema: _s, $defs: errorDefs, ...errorBranch } = error;
  return {
    $schema,
    type: "object",
    anyOf: [
      { ...answerBranch, properties: { ...(answerBranch.properties as JsonSchema), _sandbox: SANDBOX_MARKER_SCHEMA } },
      { ...errorBranch, description: "On an `isError` result: the CONTRACT error body (`error` is the code, e.g. `invalid_request`, `forbidden`, `not_found`)." },
    ],
    ...(answerDefs || errorDefs ? { $defs: { ...(errorDefs as JsonSchema), ...(answerDefs as JsonSchema) } } : {}),
  };
}
