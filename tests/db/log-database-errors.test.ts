import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { apiKeys, devices, serviceMeta, tenants } from "@/lib/db/schema";
import { requestLogger } from "@/lib/log/logger";
import { REDACTED } from "@/lib/log/redact-fields";
import { STATEMENT_MAX_CHARS } from "@/lib/log/describe-error";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { captureLog } from "../helpers/log-capture";

/**
 * Real failures through drizzle on both drivers, logged the way a route logs an unhandled error
 * (the error plus whatever request context is at hand). Every secret below reaches the driver's
 * error (drizzle's message, Postgres's message, `detail` or `where`); none may reach the log line.
 */

const TENANT = "t_log";
const REQUEST_ID = "req_logtest0001";
const OPERATION = "POST /api/v1/oem/ingest";
const BODY = { vehicles: [{ vin: "YV1SECRETBODYVIN1", raw_data: { note: "SECRET-body-note" } }] };
const API_KEY = "fdp_live_SECRETKEY0123456789";
const INGEST_SECRET = "SECRET-ingest-secret";

interface Failure {
  name: string;
  /** Values that the driver error carries and the log must not. */
  secrets: string[];
  code: string;
  run(db: Db): Promise<unknown>;
  /** What the described error keeps besides class and code. */
  expected?: Record<string, unknown>;
}

const failures: Failure[] = [
  {
    name: "text into an integer column",
    secrets: ["SECRET-abc123"],
    code: "22P02",
    run: (db) => db.insert(devices).values({ tenantId: TENANT, deviceId: "d-int", name: "n", year: "SECRET-abc123" as unknown as number }),
    expected: { message: 'invalid input syntax for type integer: "?"' },
  },
  {
    name: "an out-of-range number",
    secrets: ["987654321098"],
    code: "22003",
    run: (db) => db.insert(devices).values({ tenantId: TENANT, deviceId: "d-range", name: "n", year: 987654321098 }),
    expected: { message: 'value "?" is out of range for type integer' },
  },
  {
    name: "a NUL byte in text",
    secrets: ["SECRET-nul"],
    code: "22021",
    run: (db) => db.insert(devices).values({ tenantId: TENANT, deviceId: "d-nul", name: "SECRET-nul\u0000tail" }),
  },
  {
    name: "a unique violation on a secret value",
    secrets: ["SECRET-key-hash-0042"],
    code: "23505",
    run: async (db) => {
      const row = { tenantId: TENANT, keyHash: "SECRET-key-hash-0042", displayPrefix: "fdp_live_SE", scopes: ["fleet:read"] };
      await db.insert(apiKeys).values({ id: "key_a", ...row });
      await db.insert(apiKeys).values({ id: "key_b", ...row });
    },
    expected: { message: 'duplicate key value violates unique constraint "api_keys_key_hash_unique"', table: "api_keys", constraint: "api_keys_key_hash_unique" },
  },
  {
    name: "jsonb holding \\u0000",
    secrets: ["SECRET-json"],
    code: "22P05",
    run: (db) => db.insert(serviceMeta).values({ key: "log-test", value: { note: "SECRET-json\u0000x" } }),
    expected: { message: "unsupported Unicode escape sequence" },
  },
  {
    name: "a large batch whose statement and parameter list are long",
    secrets: ["SECRET-batch-name-7", "SECRET-abc999"],
    code: "22P02",
    run: (db) =>
      db.insert(devices).values(
        Array.from({ length: 40 }, (_, i) => ({
          tenantId: TENANT,
          deviceId: `d-batch-${i}`,
          name: `SECRET-batch-name-${i}`,
          year: (i === 39 ? "SECRET-abc999" : 2020) as number,
        })),
      ),
  },
];

/** Everything drizzle and the driver attached to the error, to prove the secrets were there to leak. */
function everythingIn(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 3 && cur; i++) {
    const o = cur as Record<string, unknown>;
    parts.push(String(o.message), String(o.detail), String(o.where), JSON.stringify(o.params ?? o.parameters ?? null));
    cur = o.cause;
  }
  return parts.join("\n");
}

for (const kind of ["postgres", "pglite"] as const) {
  describe(`logging database errors (${kind})`, () => {
    let t: TestDatabase;

    beforeAll(async () => {
      t = await createTestDatabase(kind);
      await t.handle.db.insert(tenants).values({ id: TENANT, name: "Log test", ingestSecret: INGEST_SECRET });
    });
    afterAll(async () => {
      await t?.dispose();
    });

    for (const f of failures) {
      it(`logs ${f.name} without its data`, async () => {
        const err = await f.run(t.handle.db).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, "the statement should fail").toBeDefined();
        const raw = everythingIn(err);
        for (const s of f.secrets) expect(raw, "the driver's error carries the secret").toContain(s);
        const params = (err as { params?: unknown[] }).params ?? [];
        expect(params.length).toBeGreaterThan(0);

        const cap = captureLog("info");
        const log = requestLogger({ requestId: REQUEST_ID, operation: OPERATION }, cap.logger);
        log.error({ err, body: BODY, headers: { authorization: `Bearer ${API_KEY}` }, tenant: { id: TENANT, ingest_secret: INGEST_SECRET } }, "unhandled error");

        expect(cap.lines).toHaveLength(1);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed log line; the expectations below check its shape
        const line = JSON.parse(cap.lines[0] ?? "") as Record<string, any>;
        expect(line).toMatchObject({
          level: "error",
          request_id: REQUEST_ID,
          operation: OPERATION,
          msg: "unhandled error",
          err: { error_class: "DrizzleQueryError", cause_class: kind === "postgres" ? "PostgresError" : "DatabaseError", code: f.code, severity: "ERROR", ...f.expected },
          body: REDACTED,
          headers: { authorization: REDACTED },
          tenant: { id: TENANT, ingest_secret: REDACTED },
        });
        expect(typeof line.err.routine).toBe("string");

        // The statement: the start of the parameterised SQL, whitespace collapsed, at most ~200 characters.
        const statement = String(line.err.statement);
        expect(statement.startsWith("insert into ")).toBe(true);
        expect(statement.length).toBeLessThanOrEqual(STATEMENT_MAX_CHARS + 1);
        expect(statement).not.toMatch(/\s{2}|\n/);
        const query = String((err as { query?: string }).query);
        if (query.length > STATEMENT_MAX_CHARS) expect(statement.endsWith("…")).toBe(true);

        const text = cap.text();
        for (const s of [...f.secrets, API_KEY, INGEST_SECRET, "YV1SECRETBODYVIN1", "SECRET-body-note"]) expect(text).not.toContain(s);
        expect(text).not.toContain("SECRET");
        expect(text).not.toContain(params.map(String).join(",")); // drizzle's "params: a,b,c"
        expect(text).not.toContain("Failed query");
        for (const key of ["detail", "where", "hint", "params", "parameters", "query", "stack"]) expect(line.err).not.toHaveProperty(key);
      });
    }
  });
}
