import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/authenticate-api-key";
import type { TenantCtx } from "@/lib/context";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { errorBodyFor } from "@/lib/http/error-response";
import type { Operation } from "@/lib/operations/define-operation";
import { checkedOutput, parseInput } from "@/lib/validation";
import { TOOL_NAMES, toolEntry, type ToolName } from "./tool-catalogue";
import { summarizeToolResult } from "./tool-summaries";

/** Who calls a tool: the context the endpoint authorised, and the key's scopes for each tool's own check. */
export interface McpCaller {
  ctx: TenantCtx;
  scopes: Principal["scopes"];
  requestId: string;
}

/**
 * The tool's arguments as the operation's input parser receives them from REST. Path and query
 * values travel as strings there; a client following the tool's JSON Schema sends `50` or `true`,
 * which become `"50"` and `"true"` so that one parser (with its ranges and its refusal of `1.5` for
 * an integer) judges both surfaces alike. Body fields pass as they are. An argument the tool does not
 * take is refused by name: a misspelt `deviceId` must not silently mean "no device".
 */
function restInput(op: Operation, args: Record<string, unknown>, fixed: Readonly<Record<string, string>>): Record<string, unknown> {
  const stringly = new Set([...op.pathParams, ...Object.keys(op.input.query?.shape ?? {})]);
  const offered = new Set(Object.keys(op.inputSchema.shape).filter((name) => !(name in fixed)));
  const unknown = Object.keys(args).filter((name) => !offered.has(name));
  if (unknown.length > 0) {
    const takes = offered.size > 0 ? `it takes ${[...offered].join(", ")}` : "it takes no arguments";
    throw new ValidationError(
      `Unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: ${takes}.`,
      unknown.map((field) => ({ field, message: "is not an argument of this tool" })),
    );
  }
  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    raw[name] = stringly.has(name) && (typeof value === "number" || typeof value === "boolean") ? String(value) : value;
  }
  return { ...raw, ...fixed };
}

/** A copy of the answer for the text block: strings longer than this (a PDF's base64) are elided. */
const TEXT_COPY_MAX_STRING = 2048;

function textCopy(answer: unknown): string {
  return JSON.stringify(answer, (_key, value: unknown) =>
    typeof value === "string" && value.length > TEXT_COPY_MAX_STRING
      ? `<${value.length} characters elided: see structuredContent>`
      : value,
  );
}

/** The summary is a courtesy: if it fails, the answer still goes out, with the operation's own summary line. */
function summaryOf(name: ToolName, answer: unknown, op: Operation): string {
  try {
    return summarizeToolResult(name, answer, new Date());
  } catch {
    return `${op.summary}: see the structured answer.`;
  }
}

/** A tool error: `isError`, the CONTRACT error body as structured content, its code and message as text. */
export function toolErrorResult(err: unknown, caller: McpCaller): CallToolResult {
  const { body } = errorBodyFor(err, caller.requestId, caller.ctx.log);
  const structured = caller.ctx.isSandbox ? { ...body, _sandbox: true as const } : body;
  return { isError: true, content: [{ type: "text", text: `${body.error}: ${body.message}` }], structuredContent: { ...structured } };
}

/**
 * Runs one tool: the REST twin's scope → the operation's input validation → its verb → its output
 * check, exactly as the REST binding does, and answers the same JSON as `structuredContent` (with
 * `_sandbox` for the sandbox key) after a one-line summary and the JSON as text (for clients that read
 * only text). Every failure is an `isError` result carrying the CONTRACT error body, never a protocol
 * error (CONTRACT "Settled details").
 */
export async function callTool({ caller, name, args }: { caller: McpCaller; name: string; args: unknown }): Promise<CallToolResult> {
  const started = performance.now();
  const log = caller.ctx.log.child({ tool: name });
  try {
    const entry = toolEntry(name);
    if (!entry) throw new NotFoundError(`No tool named ${name}. The tools are: ${TOOL_NAMES.join(", ")}.`);
    const op = entry.operation;
    if ("scope" in op.access && !caller.scopes.has(op.access.scope)) {
      throw new ForbiddenError(`This API key lacks the scope ${op.access.scope} that ${name} needs (as its REST twin ${op.method} /api/v1${op.path} does).`);
    }
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      throw new ValidationError("The arguments must be a JSON object.", [{ field: "(root)", message: "must be an object" }]);
    }
    const input = parseInput(op.inputSchema, restInput(op, (args ?? {}) as Record<string, unknown>, entry.fixed ?? {}));
    const ctx = "public" in op.access ? { db: caller.ctx.db, log } : { ...caller.ctx, log };
    const result = await op.verb({ ctx: ctx as never, input: input as never });
    if (result instanceof Response) throw new Error(`operation ${op.id} answered a file to an MCP tool; the tool fixes a JSON answer`);
    // What REST would send: the checked answer through JSON (dates as strings, no undefined members).
    const answer = JSON.parse(JSON.stringify(checkedOutput(op.output, result, `the answer of ${op.id}`))) as Record<string, unknown>;
    const structured = caller.ctx.isSandbox ? { ...answer, _sandbox: true } : answer;
    log.info({ ms: Math.round(performance.now() - started) }, "tool call");
    return {
      content: [
        { type: "text", text: summaryOf(entry.name as ToolName, answer, op) },
        { type: "text", text: textCopy(structured) },
      ],
      structuredContent: structured,
    };
  } catch (err) {
    const result = toolErrorResult(err, { ...caller, ctx: { ...caller.ctx, log } });
    log.info({ ms: Math.round(performance.now() - started), error_code: (result.structuredContent as { error: string }).error }, "tool call failed");
    return result;
  }
}
