import { DrizzleQueryError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { describeError, redactMessage, redactSql, STATEMENT_MAX_CHARS, summarizeStatement } from "@/lib/log/describe-error";

const SECRET = "SECRET-abc123";

/** Shaped like postgres.js's error: enumerable fields from the server, parameters hung on it. */
class PostgresError extends Error {
  constructor(fields: Record<string, unknown>) {
    super(String(fields.message));
    this.name = "PostgresError";
    Object.assign(this, fields);
  }
}

/** Shaped like PGlite's: its build shortens the class name `DatabaseError` to `O`, and `name` is "error". */
class O extends Error {
  constructor(fields: Record<string, unknown>) {
    super(String(fields.message));
    Object.assign(this, fields, { name: "error" });
  }
}

const insertSql = `insert into "api_keys" ("id", "tenant_id", "name", "key_hash", "display_prefix", "scopes", "created_at", "last_used_at", "revoked_at")
   values ($1, $2, default, $3, $4, $5, default, default, default)`;
const params = ["k2", "t1", SECRET, "p", "{}"];

function uniqueViolation(Cause: typeof PostgresError | typeof O, fieldNames: "postgres.js" | "pglite") {
  const names =
    fieldNames === "postgres.js"
      ? { schema_name: "public", table_name: "api_keys", constraint_name: "api_keys_key_hash_unique" }
      : { schema: "public", table: "api_keys", constraint: "api_keys_key_hash_unique" };
  const cause = new Cause({
    message: 'duplicate key value violates unique constraint "api_keys_key_hash_unique"',
    severity: "ERROR",
    code: "23505",
    detail: `Key (key_hash)=(${SECRET}) already exists.`,
    where: `unnamed portal parameter $3 = '${SECRET}'`,
    hint: `try ${SECRET}`,
    internal_query: `select '${SECRET}'`,
    routine: "_bt_check_unique",
    file: "nbtinsert.c",
    line: "664",
    query: insertSql,
    parameters: params,
    params,
    ...names,
  });
  return new DrizzleQueryError(insertSql, params, cause);
}

describe("describeError on database errors", () => {
  for (const [label, Cause, fields, causeClass] of [
    ["postgres.js", PostgresError, "postgres.js", "PostgresError"],
    ["PGlite", O, "pglite", "DatabaseError"],
  ] as const) {
    it(`keeps the classes, SQLSTATE and names of a ${label} error, and none of its data`, () => {
      const err = uniqueViolation(Cause, fields);
      expect(err.message).toContain(SECRET); // drizzle's own message is the leak this guards against

      const d = describeError(err);
      expect(d).toEqual({
        error_class: "DrizzleQueryError",
        cause_class: causeClass,
        message: 'duplicate key value violates unique constraint "api_keys_key_hash_unique"',
        code: "23505",
        severity: "ERROR",
        routine: "_bt_check_unique",
        schema: "public",
        table: "api_keys",
        constraint: "api_keys_key_hash_unique",
        statement:
          'insert into "api_keys" ("id", "tenant_id", "name", "key_hash", "display_prefix", "scopes", "created_at", "last_used_at", "revoked_at") values ($1, $2, default, $3, $4, $5, default, default, default)',
      });
      const json = JSON.stringify(d);
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain("Failed query");
      expect(json).not.toMatch(/detail|where|hint|params|parameters|internal/);
      expect(d.stack).toBeUndefined();
    });
  }

  it("redacts the value a Postgres message quotes, and long digit runs", () => {
    const cause = new PostgresError({ message: `invalid input syntax for type integer: "${SECRET}"`, severity: "ERROR", code: "22P02", routine: "pg_strtoint32" });
    expect(describeError(new DrizzleQueryError("insert into t (a) values ($1)", [SECRET], cause)).message).toBe('invalid input syntax for type integer: "?"');
    const range = new PostgresError({ message: 'value "987654321098" is out of range for type integer', severity: "ERROR", code: "22003" });
    expect(describeError(range).message).toBe('value "?" is out of range for type integer');
    const uuid = new PostgresError({ message: 'invalid input syntax for type uuid: "4111111111111111"', severity: "ERROR", code: "22P02" });
    expect(describeError(uuid).message).toBe('invalid input syntax for type uuid: "?"');
  });

  it("truncates a long statement and never includes it from the message", () => {
    const values = Array.from({ length: 500 }, (_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`).join(",\n      ");
    const sql = `insert into "telemetry" ("tenant_id", "device_id", "ts")\n    values ${values}`;
    const big = Array.from({ length: 1500 }, (_, i) => `${SECRET}-${i}`);
    const d = describeError(new DrizzleQueryError(sql, big, new PostgresError({ message: "boom", severity: "ERROR", code: "XX000" })));
    expect(d.statement?.length).toBe(STATEMENT_MAX_CHARS + 1);
    expect(d.statement).toMatch(/^insert into "telemetry" \("tenant_id", "device_id", "ts"\) values \(\$1, \$2, \$3\), /);
    expect(d.statement?.endsWith("…")).toBe(true);
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it("drops drizzle's query dump from a message that embeds it", () => {
    const inner = uniqueViolation(PostgresError, "postgres.js");
    const outer = new Error(`ingest failed: ${inner.message}`, { cause: inner });
    const d = describeError(outer);
    expect(d.message).toBe('ingest failed: [failed query] | cause: duplicate key value violates unique constraint "api_keys_key_hash_unique"');
    expect(d).toMatchObject({ error_class: "Error", cause_class: "DrizzleQueryError > PostgresError", code: "23505", table: "api_keys" });
    expect(d.statement).toMatch(/^insert into "api_keys"/);
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it("describes a drizzle wrapper around a connection failure by its code, without the statement's parameters", () => {
    const cause = Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), { code: "CONNECTION_CLOSED" });
    const d = describeError(new DrizzleQueryError("select $1", [SECRET], cause));
    expect(d).toMatchObject({
      error_class: "DrizzleQueryError",
      cause_class: "Error",
      code: "CONNECTION_CLOSED",
      message: "write CONNECTION_CLOSED 127.0.0.1:5432",
      statement: "select $1",
    });
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });
});

describe("describeError on other errors", () => {
  it("keeps class, redacted message and stack frames, without the stack's header", () => {
    let err: unknown;
    try {
      JSON.parse(SECRET);
    } catch (e) {
      err = e;
    }
    expect(String((err as Error).stack)).toContain(SECRET); // V8 quotes the input in the message and the stack header
    const d = describeError(err);
    expect(d.error_class).toBe("SyntaxError");
    expect(d.stack).toMatch(/^at /);
    expect(d.stack).toContain("describe-error.test.ts");
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it("drops message lines that pose as stack frames", () => {
    const err = new Error(`bad input\n    at ${SECRET} (/x.js:1:1)`);
    expect(describeError(err).stack).not.toContain(SECRET);
    // A message changed after the stack was captured: only lines shaped like frames survive.
    const changed = new Error(`first\n    at ${SECRET}-frame`);
    changed.message = "changed";
    const d = describeError(changed);
    expect(d.stack).toContain("describe-error.test.ts");
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it("keeps Node codes and walks causes (cycle-safe)", () => {
    const inner = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" });
    const outer = new TypeError(`rate limit store failed for "${SECRET}"`, { cause: inner });
    (inner as Error & { cause?: unknown }).cause = outer;
    const d = describeError(outer);
    expect(d).toMatchObject({ error_class: "TypeError", cause_class: "Error", code: "ECONNREFUSED" });
    expect(d.message).toBe('rate limit store failed for "?" | cause: connect ECONNREFUSED 127.0.0.1:6379');
  });

  it("describes values that are not errors", () => {
    expect(describeError("went wrong for 'SECRET'")).toEqual({ error_class: "string", message: "went wrong for '?'" });
    expect(describeError(undefined)).toEqual({ error_class: "undefined", message: "" });
    expect(describeError(null)).toEqual({ error_class: "null", message: "" });
    const plain = { message: "plain", detail: SECRET, code: "23505", severity: "ERROR", password: SECRET };
    const d = describeError(plain);
    expect(d).toMatchObject({ error_class: "Object", message: "plain", code: "23505" });
    expect(JSON.stringify(d)).not.toContain(SECRET);
    // Another library's `query` (a search string, say) is not a statement.
    expect(describeError(Object.assign(new Error("search failed"), { query: SECRET })).statement).toBeUndefined();
  });
});

describe("redactMessage", () => {
  it("redacts from the first unknown quoted span to the last quote, so quotes inside a value do not help it out", () => {
    expect(redactMessage('invalid input syntax for type integer: "SEC"RET"')).toBe('invalid input syntax for type integer: "?"');
    expect(redactMessage('x: "a" SECRET "b" tail')).toBe('x: "?" tail');
    expect(redactMessage('unterminated "SECRET tail')).toBe('unterminated "?"');
  });
  it("keeps the error's own identifiers quoted", () => {
    const keep = new Set(["device_id", "devices"]);
    expect(redactMessage('null value in column "device_id" of relation "devices" violates not-null constraint', keep)).toBe(
      'null value in column "device_id" of relation "devices" violates not-null constraint',
    );
    expect(redactMessage('column "device_id" got "SECRET"', keep)).toBe('column "device_id" got "?"');
  });
  it("redacts single-quoted spans and runs of six digits or more", () => {
    expect(redactMessage("Cannot read properties of undefined (reading 'SECRET')")).toBe("Cannot read properties of undefined (reading '?')");
    expect(redactMessage("card 4111111111111111 at line 12345")).toBe("card ? at line 12345");
  });
});

describe("redactSql / summarizeStatement", () => {
  it("redacts literals and keeps identifiers and placeholders", () => {
    expect(redactSql(`select "a" from "t" where b = 'SECRET' and c = 'it''s' and d = $1`)).toBe(`select "a" from "t" where b = '?' and c = '?' and d = $1`);
    expect(redactSql("select $tag$SECRET$tag$, $$SECRET$$, 1")).toBe("select '?', '?', 1");
    expect(redactSql("select 'unterminated SECRET")).toBe("select '?");
    expect(redactSql("select 1234567890")).toBe("select ?");
  });
  it("collapses whitespace and cuts to ~200 characters", () => {
    expect(summarizeStatement('select\n\t  *\n  from   "t"  ')).toBe('select * from "t"');
    const long = `select ${Array.from({ length: 100 }, (_, i) => `"column_${i}"`).join(", ")} from "t"`;
    const s = summarizeStatement(long);
    expect(s.length).toBe(STATEMENT_MAX_CHARS + 1);
    expect(s.endsWith("…")).toBe(true);
  });
});
