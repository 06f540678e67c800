import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { TOOL_CATALOGUE } from "@/lib/mcp/tool-catalogue";
import { toolInputJsonSchema, toolOutputJsonSchema } from "@/lib/mcp/tool-json-schema";
import examples from "@/lib/openapi/examples.json";

/**
 * The JSON Schemas clients see for each tool, checked the way a strict client would: with Ajv, against
 * the sandbox's real answers (lib/openapi/examples.json) and the CONTRACT error body.
 */

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

function walk(node: unknown, visit: (n: Record<string, unknown>, path: string) => void, path = "$"): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, visit, `${path}[${i}]`));
  else if (node !== null && typeof node === "object") {
    visit(node as Record<string, unknown>, path);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}.${k}`);
  }
}

const entries = TOOL_CATALOGUE;

describe.each(entries.map((e) => [e.name, e] as const))("%s", (_, entry) => {
  const input = toolInputJsonSchema(entry.operation, entry.fixed);
  const output = toolOutputJsonSchema(entry.operation);
  const answer = (examples as Record<string, { response?: unknown }>)[entry.operation.id]?.response as Record<string, unknown> | undefined;

  it("uses one `type` per schema (nullable as anyOf), no `example`, no pattern on non-strings, no empty `additionalProperties`", () => {
    for (const schema of [input, output]) {
      walk(schema, (n, path) => {
        expect(Array.isArray(n.type), path).toBe(false);
        expect("example" in n, path).toBe(false);
        if ("pattern" in n && typeof n.pattern === "string") expect(n.type, path).toBe("string");
        if (n.additionalProperties !== undefined && typeof n.additionalProperties === "object")
          expect(Object.keys(n.additionalProperties as object).length, path).toBeGreaterThan(0);
      });
    }
  });

  it("accepts the sandbox's real answer, with and without _sandbox, and the CONTRACT error body; refuses a broken answer", () => {
    expect(answer, `examples.json has ${entry.operation.id}`).toBeDefined();
    const validate = ajv.compile(output);
    expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...answer, _sandbox: true })).toBe(true);
    expect(validate({ error: "invalid_request", message: "Invalid input (device_id: bad).", details: [{ field: "device_id", message: "bad" }], request_id: "req_1" })).toBe(true);
    expect(validate({ error: "no_such_code", message: "x" })).toBe(false);
    expect(validate({ ...answer, _sandbox: false })).toBe(false);
    const firstRequired = (output.anyOf as { required?: string[] }[])[0]?.required?.[0];
    if (firstRequired) {
      const { [firstRequired]: _dropped, ...broken } = answer!;
      expect(validate(broken), `without ${firstRequired}`).toBe(false);
    }
  });

  it("offers exactly the operation's inputs less the fixed ones, and refuses anything else", () => {
    const offered = Object.keys(entry.operation.inputSchema.shape).filter((k) => !(k in (entry.fixed ?? {})));
    expect(Object.keys(input.properties as object).sort()).toEqual(offered.sort());
    expect(input.additionalProperties).toBe(false);
    expect(ajv.compile(input)({ surely_not_an_argument: 1 })).toBe(false);
  });
});
