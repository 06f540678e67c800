/**
 * What of a thrown value may go into a log line. The project's rule: logs never carry request
 * bodies, SQL parameters or secrets. Errors are where those leak: drizzle's `DrizzleQueryError`
 * message is the whole statement followed by every parameter, Postgres messages quote the offending
 * value (`invalid input syntax for type integer: "…"`), `detail` quotes key values
 * (`Key (key_hash)=(…) already exists.`), `where` quotes JSON input, and both drivers hang the
 * parameters on the error (`parameters` on postgres.js, `params` on PGlite).
 *
 * So nothing is copied wholesale: `describeError` builds a new object from an allow-list of fields,
 * and every free text it keeps goes through `redactMessage` or `redactSql` first.
 */

interface ErrorDescription {
  /** Class of the thrown value, e.g. `DrizzleQueryError`, `TypeError`; `string` etc. for non-objects. */
  error_class: string;
  /** Classes of its `cause` chain, outermost first, joined by ` > ` (e.g. `PostgresError`). */
  cause_class?: string;
  /** Messages of the chain with quoted literals and long digit runs replaced by `?`. Never drizzle's "Failed query: … params: …". */
  message: string;
  /** Postgres SQLSTATE (e.g. `23505`), or a Node/driver code such as `ECONNREFUSED`. */
  code?: string;
  severity?: string;
  /** Postgres source function that raised it (e.g. `_bt_check_unique`). */
  routine?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
  /** The parameterised statement (never its parameters), literals redacted, whitespace collapsed, cut to ~200 characters. */
  statement?: string;
  /** Stack frames only (the header line, which repeats the message, is dropped); not for database errors. */
  stack?: string;
}

export const STATEMENT_MAX_CHARS = 200;
const MESSAGE_MAX_CHARS = 500;
const STACK_MAX_FRAMES = 15;
const CAUSE_DEPTH = 5;

const SQLSTATE_RE = /^[0-9A-Z]{5}$/;
/** Node's and postgres.js's own codes (`ECONNREFUSED`, `CONNECTION_CLOSED`): names, never data. */
const SYMBOLIC_CODE_RE = /^[A-Z][A-Z0-9_]{1,39}$/;
/** Unquoted Postgres identifier: only those are kept quoted in a message (see `redactMessage`). */
const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
/** Six digits or more: account, card, phone or out-of-range numbers. Placeholders ($1…$65535) and line numbers stay. */
const LONG_DIGITS_RE = /\d{6,}/g;

type Bag = Record<string, unknown>;

/** Every object describeError returns, so that a description is never described again. */
const descriptions = new WeakSet<object>();
export const isErrorDescription = (v: unknown): v is ErrorDescription => typeof v === "object" && v !== null && descriptions.has(v);

const isObject = (v: unknown): v is Bag => typeof v === "object" && v !== null;
const stringField = (o: Bag, ...names: string[]): string | undefined => {
  for (const n of names) {
    const v = o[n];
    if (typeof v === "string" && v !== "") return v;
  }
  return undefined;
};

/** A Postgres error from either driver: a SQLSTATE plus a severity (postgres.js `PostgresError`, PGlite `DatabaseError`). */
function isPgError(o: Bag): boolean {
  const code = o.code;
  return typeof code === "string" && SQLSTATE_RE.test(code) && typeof o.severity === "string";
}

/** drizzle's wrapper: `Failed query: <sql>\nparams: <every parameter>`, with the driver's error as `cause`. */
function isQueryWrapper(o: Bag): boolean {
  return typeof o.message === "string" && o.message.startsWith("Failed query:");
}

/**
 * The class name. Bundlers shorten class names (PGlite's `DatabaseError` is `O` in its own build,
 * and a minified server bundle may do the same to drizzle's): for those, name the known shapes.
 */
function classOf(v: unknown): string {
  if (v === null) return "null";
  if (typeof v !== "object") return typeof v;
  const o = v as Bag;
  const ctor = (Object.getPrototypeOf(o) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  if (typeof ctor === "string" && ctor.length > 2) return ctor;
  if (isPgError(o)) return "DatabaseError";
  if (isQueryWrapper(o)) return "DrizzleQueryError";
  const name = o.name;
  return typeof name === "string" && IDENTIFIER_RE.test(name) ? name : "Object";
}

/**
 * Redacts a message, which may quote data. Double-quoted spans are values (`"SECRET"`) unless they are
 * one of `keep` (the error's own table/column/constraint names). A value may itself contain quotes,
 * so from the first span that is not kept to the last quote, everything becomes one `"?"`; the same
 * for single quotes (`'...'` in JS messages). Runs of 6+ digits become `?`.
 */
export function redactMessage(text: string, keep: ReadonlySet<string> = new Set()): string {
  return redactQuoted(redactQuoted(text, '"', keep), "'", new Set()).replace(LONG_DIGITS_RE, "?");
}

function redactQuoted(text: string, quote: string, keep: ReadonlySet<string>): string {
  const last = text.lastIndexOf(quote);
  let out = "";
  let i = 0;
  for (;;) {
    const open = text.indexOf(quote, i);
    if (open < 0) return out + text.slice(i);
    // A lone quote left (`open === last`) opens a value that runs to the end.
    const close = open === last ? -1 : text.indexOf(quote, open + 1);
    const inner = close < 0 ? undefined : text.slice(open + 1, close);
    if (inner === undefined || !keep.has(inner)) return `${out + text.slice(i, open)}${quote}?${quote}${close < 0 ? "" : text.slice(last + 1)}`;
    out += text.slice(i, close + 1);
    i = close + 1;
  }
}

/**
 * Redacts SQL text: string literals (`'…'` with `''` escapes, `$tag$…$tag$`) become `'?'`, an
 * unterminated one cuts the rest; runs of 6+ digits become `?`. Double-quoted identifiers stay.
 * (drizzle sends values as parameters; literals only appear through `sql.raw` or inlined SQL.)
 */
export function redactSql(sql: string): string {
  let out = sql.replace(/\$([A-Za-z_][A-Za-z0-9_]*)?\$[\s\S]*?\$\1\$/g, "'?'").replace(/'(?:[^']|'')*'/g, "'?'");
  const stray = out.replace(/'\?'/g, "   ").search(/'|\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/);
  if (stray >= 0) out = `${out.slice(0, stray)}'?`;
  return out.replace(LONG_DIGITS_RE, "?");
}

/** The statement without its data: literals redacted, whitespace collapsed, cut to STATEMENT_MAX_CHARS. */
export function summarizeStatement(sql: string): string {
  // Redact a bounded prefix only: an ingest batch's statement can be hundreds of KB.
  const collapsed = redactSql(sql.slice(0, STATEMENT_MAX_CHARS * 10))
    .replace(/\s+/g, " ")
    .trim();
  return collapsed.length > STATEMENT_MAX_CHARS ? `${collapsed.slice(0, STATEMENT_MAX_CHARS)}…` : collapsed;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The frames of a stack, without its header: V8 starts `stack` with `Name: message`, and the message
 * may hold data over several lines, some of which could look like frames. The header is removed by
 * its exact text when it is there; otherwise only lines shaped like frames are kept.
 */
function stackFrames(o: Bag): string | undefined {
  const stack = o.stack;
  if (typeof stack !== "string") return undefined;
  let body = stack;
  const header = `${String(o.name)}: ${String(o.message)}`;
  if (typeof o.message === "string" && body.startsWith(header)) body = body.slice(header.length);
  else if (typeof o.message === "string" && o.message !== "") return framesOnly(body);
  return firstFrames(body.split("\n").filter((l) => /^\s+at /.test(l)));
}

/** `at fn (path:1:2)`, `at async fn (path:1:2)`, `at path:1:2`, `at Promise.all (index 0)`. */
const FRAME_RE = /^\s+at (?:async )?(?:(?:new )?[^\s()]+(?: \[as [^\]\s]+\])? \((?:[^()\n]*:\d+:\d+|native|<anonymous>|index \d+)\)|[^\s()]+:\d+:\d+)$/;
function framesOnly(stack: string): string | undefined {
  return firstFrames(stack.split("\n").filter((l) => FRAME_RE.test(l)));
}

/** The first STACK_MAX_FRAMES frames, one a line, or nothing when there is none. */
function firstFrames(frames: string[]): string | undefined {
  return frames.length > 0
    ? frames
        .slice(0, STACK_MAX_FRAMES)
        .map((l) => l.trim())
        .join("\n")
    : undefined;
}

/** A message that embeds drizzle's (`new Error(`ingest failed: ${e.message}`)`) loses everything from "Failed query:" on. */
function withoutQueryDump(message: string): string {
  const at = message.indexOf("Failed query:");
  return at < 0 ? message : `${message.slice(0, at)}[failed query]`;
}

/** The cause chain, outermost first, cycle-safe and bounded. */
function chainOf(err: unknown): unknown[] {
  const chain: unknown[] = [err];
  const seen = new Set<unknown>([err]);
  let cur = err;
  while (chain.length < CAUSE_DEPTH && isObject(cur) && "cause" in cur && cur.cause !== undefined && !seen.has(cur.cause)) {
    cur = cur.cause;
    seen.add(cur);
    chain.push(cur);
  }
  return chain;
}

/**
 * A plain object safe to log for any thrown value. For database errors: the classes, SQLSTATE,
 * severity, routine, schema/table/column/constraint names, the redacted message and the redacted,
 * truncated statement; never `detail`, `where`, `hint`, `internal_query` or the parameters. For other
 * errors: class, redacted message, code and stack frames.
 */
export function describeError(err: unknown): ErrorDescription {
  const chain = chainOf(err);
  const objects = chain.filter(isObject);
  const pg = objects.find(isPgError);

  const keep = new Set<string>();
  const identifiers: Pick<ErrorDescription, "schema" | "table" | "column" | "constraint"> = {};
  if (pg) {
    const fields = {
      schema: stringField(pg, "schema_name", "schema"),
      table: stringField(pg, "table_name", "table"),
      column: stringField(pg, "column_name", "column"),
      constraint: stringField(pg, "constraint_name", "constraint"),
    };
    for (const [k, v] of Object.entries(fields)) {
      if (v !== undefined && IDENTIFIER_RE.test(v)) {
        identifiers[k as keyof typeof identifiers] = v;
        keep.add(v);
      }
    }
    const dataType = stringField(pg, "data type_name", "dataType");
    if (dataType !== undefined && IDENTIFIER_RE.test(dataType)) keep.add(dataType);
  }

  const messages = chain
    .map((link) => {
      if (isObject(link)) {
        if (isQueryWrapper(link)) return undefined; // its message is the statement plus every parameter
        return typeof link.message === "string" ? withoutQueryDump(link.message) : undefined;
      }
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects were handled above: a primitive
      return link === undefined || link === null ? undefined : String(link);
    })
    .filter((m): m is string => m !== undefined && m !== "")
    .map((m) => redactMessage(m, keep));

  const description: ErrorDescription = {
    error_class: classOf(err),
    ...(chain.length > 1 ? { cause_class: chain.slice(1).map(classOf).join(" > ") } : {}),
    message: cut(messages.join(" | cause: ") || (pg ? "database error" : ""), MESSAGE_MAX_CHARS),
  };

  const wrapper = objects.find(isQueryWrapper);
  const statement = objects.map((o) => o.query).find((q): q is string => typeof q === "string" && q !== "");
  if (pg) {
    description.code = pg.code as string;
    const severity = stringField(pg, "severity");
    if (severity && /^[A-Z]{1,10}$/.test(severity)) description.severity = severity;
    const routine = stringField(pg, "routine");
    if (routine && IDENTIFIER_RE.test(routine)) description.routine = routine;
    Object.assign(description, identifiers);
  } else {
    const code = objects.map((o) => o.code).find((c): c is string => typeof c === "string" && SYMBOLIC_CODE_RE.test(c));
    if (code) description.code = code;
  }
  // Only a database error's `query` is a statement (another library's `query` may be user input).
  if ((pg || wrapper) && statement !== undefined) description.statement = summarizeStatement(statement);

  if (!pg && !wrapper && isObject(err)) {
    const stack = stackFrames(err);
    if (stack) description.stack = stack;
  }
  descriptions.add(description);
  return description;
}
