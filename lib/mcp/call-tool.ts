import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/authenticate-api-key";
import type { TenantCtx } from "@/lib/context";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { errorBodyFor } from "@/lib/http/error-response";
import { inspectJson } from "@/lib/json/inspect-json";
import { JSON_BODY_MAX_DEPTH } from "@/lib/json/parse-i-json";
import type { Operation } from "@/lib/operations/define-operation";
import { invokeOperation } from "@/lib/operations/invoke-operation";
import { TOOL_NAMES, toolEntry, type ToolName } from "./tool-catalogue";
import { summarizeToolResult } from "./tool-summaries";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Who calls a tool: the context the endpoint authorised, and the key's scopes for each tool's own check. */
export interface McpCaller {
  ctx: TenantCtx;
  /** What the heavy tools' per-tenant cap counts under (lib/operations/budget.ts heavyCapKey); default the tenant. */
  capKey?: string;
  scopes: Principal["scopes"];
  requestId: string;
}

/** How many unknown argument names an error names, and how much of each (and of an unknown tool's name) it repeats. */
const MAX_NAMED_UNKNOWN = 10;
const MAX_ECHO_CHARS = 100;
const echo = (s: string): string => (s.length > MAX_ECHO_CHARS ? `${s.slice(0, MAX_ECHO_CHARS)}…` : s);

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
    // Named, but bounded: 90,000 made-up names must not come back as megabytes.
    const named = unknown.slice(0, MAX_NAMED_UNKNOWN).map(echo);
    const more = unknown.length > named.length ? ` and ${unknown.length - named.length} more` : "";
    throw new ValidationError(
      `Unknown argument${unknown.length > 1 ? "s" : ""} ${named.join(", ")}${more}: ${takes}.`,
      named.map((field) => ({ field, message: "is not an argument of this tool" })),
    );
  }
  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    raw[name] = !stringly.has(name) ? value : typeof value === "number" ? plainDecimal(value) : typeof value === "boolean" ? String(value) : value;
  }
  return { ...raw, ...fixed };
}

/**
 * The tool's arguments as the operation's raw input: a JSON object (judged here, after the tool's
 * name and scope) whose strings and numbers the edge left to the tool (lib/mcp/bind-mcp-route.ts),
 * then as REST would receive them (restInput).
 */
function toolInput(op: Operation, args: unknown, fixed: Readonly<Record<string, string>>): Record<string, unknown> {
  if (args !== undefined && !isPlainObject(args)) {
    throw new ValidationError("The arguments must be a JSON object of the tool's arguments by name.", [{ field: "arguments", message: "must be an object" }]);
  }
  const { problem } = inspectJson(args ?? {}, JSON_BODY_MAX_DEPTH);
  if (problem) {
    const field = problem.path.map(String).join(".") || "arguments";
    throw new ValidationError(`Invalid input (${field}: ${problem.message}).`, [{ field, message: problem.message }]);
  }
  return restInput(op, args ?? {}, fixed);
}

/**
 * A number as a query string writes it: digits, never an exponent (`String(5e-7)` is `"5e-7"`, which
 * the query parsers refuse: they take digits and an optional fraction). Exact: the digits are those of
 * the shortest round-trip form, only the decimal point moves.
 */
export function plainDecimal(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = "", lead = "", frac = "", exponent = "0"] = m;
  const digits = lead + frac;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  return sign + (digits.length <= point ? digits + "0".repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`);
}

/** A copy of the answer for the text block: strings longer than this (a PDF's base64) are elided. */
const TEXT_COPY_MAX_STRING = 2048;

function textCopy(answer: unknown): string {
  return JSON.stringify(answer, (_key, value: unknown) =>
    typeof value === "string" && value.length > TEXT_COPY_MAX_STRING ? `<${value.length} characters elided: see structuredContent>` : value,
  );
}

/** The summary is a courtesy: if it fails, the answer still goes out, with the operation's own summary line. */
function summaryOf(name: ToolName, answer: unknown, op: Operation, input: Record<string, unknown>): string {
  try {
    return summarizeToolResult(name, answer, new Date(), input);
  } catch {
    return `${op.summary}: see the structured answer.`;
  }
}

/** A tool error: `isError`, the CONTRACT error body as structured content, its code and message as text. */
function toolErrorResult(err: unknown, caller: McpCaller): CallToolResult {
  const { body } = errorBodyFor(err, caller.requestId, caller.ctx.log);
  const structured = caller.ctx.isSandbox ? { ...body, _sandbox: true as const } : body;
  return { isError: true, content: [{ type: "text", text: `${body.error}: ${body.message}` }], structuredContent: { ...structured } };
}

/**
 * Runs one tool: its operation through invokeOperation (lib/operations/invoke-operation.ts), as the
 * REST binding runs it (the REST twin's scope → the tool's arguments as input → validation → the verb
 * within its budget → the output check), and answers the same JSON as `structuredContent` (with
 * `_sandbox` for the sandbox key) after a one-line summary and the JSON as text (for clients that read
 * only text). Every failure is an `isError` result carrying the CONTRACT error body, never a protocol
 * error (CONTRACT "Settled details").
 */
export async function callTool({ caller, params }: { caller: McpCaller; params: unknown }): Promise<CallToolResult> {
  const started = performance.now();
  const { name, arguments: args } = (isPlainObject(params) ? params : {}) as { name?: unknown; arguments?: unknown };
  const log = caller.ctx.log.child({ tool: typeof name === "string" ? name.slice(0, 100) : null });
  try {
    if (typeof name !== "string") {
      throw new ValidationError("A tool call names its tool: `params.name` must be a string (tools/list lists them).", [{ field: "name", message: "must be a string" }]);
    }
    const entry = toolEntry(name);
    if (!entry) throw new NotFoundError(`No tool named ${echo(name)}. The tools are: ${TOOL_NAMES.join(", ")}.`);
    const op = entry.operation;
    // Within its REST twin's budget and routed as it is: a heavy tool counts against the same per-tenant
    // cap and slots (lib/operations/budget.ts; a refusal is this tool's `rate_limited` or
    // `service_unavailable` result), the read replica for `reads: "replica"` operations.
    const { input, answer: checked } = await invokeOperation({
      op,
      ctx: "public" in op.access ? { db: caller.ctx.db, log } : { ...caller.ctx, log },
      scopes: caller.scopes,
      lacksScope: (scope) => `This API key lacks the scope ${scope} that ${name} needs (as its REST twin ${op.method} /api/v1${op.path} does).`,
      rawInput: () => toolInput(op, args, entry.fixed ?? {}),
      capKey: caller.capKey,
      log,
    });
    if (checked instanceof Response) throw new Error(`operation ${op.id} answered a file to an MCP tool; the tool fixes a JSON answer`);
    // What REST would send: the checked answer through JSON (dates as strings, no undefined members).
    const answer = JSON.parse(JSON.stringify(checked)) as Record<string, unknown>;
    const structured = caller.ctx.isSandbox ? { ...answer, _sandbox: true } : answer;
    log.info({ ms: Math.round(performance.now() - started) }, "tool call");
    return {
      content: [
        { type: "text", text: summaryOf(entry.name, answer, op, input) },
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
