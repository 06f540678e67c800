import { DrizzleQueryError } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createLogger, requestLogger, rootLogger, setRootLogger } from "@/lib/log/logger";
import { isSensitiveName, REDACTED, SENSITIVE_FIELD_NAMES } from "@/lib/log/redact-fields";
import { captureLog } from "../../helpers/log-capture";

const SECRET = "SECRET-abc123";
const REQ = { requestId: "req_0123456789abcdef", operation: "POST /api/v1/oem/ingest" };

function dbError(): DrizzleQueryError {
  const cause = Object.assign(new Error(`invalid input syntax for type integer: "${SECRET}"`), {
    name: "PostgresError",
    severity: "ERROR",
    code: "22P02",
    where: `unnamed portal parameter $2 = '${SECRET}'`,
    routine: "pg_strtoint32",
  });
  return new DrizzleQueryError('insert into "devices" ("tenant_id", "year") values ($1, $2)', ["t1", SECRET], cause);
}

afterEach(() => {
  delete process.env.LOG_LEVEL;
  resetEnvCache();
  setRootLogger(undefined);
});

describe("requestLogger", () => {
  it("writes one JSON line per call carrying request_id and operation", () => {
    const cap = captureLog();
    const log = requestLogger(REQ, cap.logger);
    log.info({ records: 3 }, "ingest stored");
    log.warn("slow");
    const [a, b] = cap.records();
    expect(cap.lines).toHaveLength(2);
    expect(a).toMatchObject({ level: "info", request_id: REQ.requestId, operation: REQ.operation, records: 3, msg: "ingest stored" });
    expect(b).toMatchObject({ level: "warn", request_id: REQ.requestId, operation: REQ.operation, msg: "slow" });
    expect(new Date(String(a?.time)).toISOString()).toBe(a?.time);
  });

  it("uses the root logger by default, which tests can replace", () => {
    const cap = captureLog();
    setRootLogger(cap.logger);
    expect(rootLogger()).toBe(cap.logger);
    requestLogger(REQ).error({ err: dbError() }, "unhandled error");
    expect(cap.records()[0]).toMatchObject({ request_id: REQ.requestId, err: { error_class: "DrizzleQueryError", code: "22P02" } });
  });
});

describe("levels", () => {
  const sink = () => {
    const lines: string[] = [];
    return { lines, destination: { write: (l: string) => void lines.push(l) } };
  };

  it("takes LOG_LEVEL from the environment, default info, and `silent` writes nothing", () => {
    const info = sink();
    const byDefault = createLogger({ destination: info.destination });
    byDefault.debug("hidden");
    byDefault.info("shown");
    expect(info.lines).toHaveLength(1);

    process.env.LOG_LEVEL = "SILENT";
    resetEnvCache();
    const silent = sink();
    createLogger({ destination: silent.destination }).fatal({ err: dbError() }, "nothing");
    expect(silent.lines).toEqual([]);

    process.env.LOG_LEVEL = "debug";
    resetEnvCache();
    expect(createLogger({ destination: sink().destination }).level).toBe("debug");
  });

  it("refuses an unknown LOG_LEVEL", () => {
    process.env.LOG_LEVEL = "verbose";
    resetEnvCache();
    expect(() => createLogger({ destination: sink().destination })).toThrow();
  });
});

describe("errors in log lines", () => {
  it("describes `err` instead of serialising the driver's error", () => {
    const cap = captureLog();
    requestLogger(REQ, cap.logger).error({ err: dbError() }, "unhandled error");
    const [line] = cap.records();
    expect(line?.err).toEqual({
      error_class: "DrizzleQueryError",
      cause_class: "Error",
      message: 'invalid input syntax for type integer: "?"',
      code: "22P02",
      severity: "ERROR",
      routine: "pg_strtoint32",
      statement: 'insert into "devices" ("tenant_id", "year") values ($1, $2)',
    });
    expect(cap.text()).not.toContain(SECRET);
  });

  it("never takes `msg` from the error's own message (pino's default)", () => {
    const cap = captureLog();
    const log = requestLogger(REQ, cap.logger);
    log.error(dbError());
    log.error({ err: dbError() });
    log.error(new Error(`user ${SECRET} not found`), "lookup failed");
    const [a, b, c] = cap.records();
    expect(a?.msg).toBe('invalid input syntax for type integer: "?"');
    expect(b?.msg).toBe('invalid input syntax for type integer: "?"');
    expect(c).toMatchObject({ msg: "lookup failed", err: { error_class: "Error", message: `user ${SECRET.replace(/\d{6,}/, "?")} not found` } });
    expect(cap.text()).not.toContain("Failed query");
    expect(cap.lines.slice(0, 2).join("")).not.toContain(SECRET);
  });

  it("describes errors under any key and at any depth, and non-errors under `err`", () => {
    const cap = captureLog();
    cap.logger.error({ error: dbError(), ctx: { step: "store", failures: [dbError()] }, err: "store failed" }, "batch failed");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed log line; the expectations below check its shape
    const [line] = cap.records() as [Record<string, any>];
    expect(line.error.error_class).toBe("DrizzleQueryError");
    expect(line.ctx.failures[0].code).toBe("22P02");
    expect(line.err).toEqual({ error_class: "string", message: "store failed" });
    expect(cap.text()).not.toContain(SECRET);
  });
});

describe("redacted fields", () => {
  it("censors credential and payload names at any depth, in arrays and in their spelling variants", () => {
    const cap = captureLog();
    const event = {
      authorization: `Bearer fdp_live_${SECRET}`,
      key_id: "key_123",
      tenant: { ingestSecret: SECRET, ingest_secret: SECRET, name: "Acme" },
      headers: { "x-api-key": SECRET, Authorization: SECRET, "content-type": "application/json" },
      deep: { a: { b: { c: { password: SECRET, api_key: SECRET, access_token: SECRET } } } },
      batch: [{ body: { vin: SECRET } }, { params: [SECRET] }],
      body: { vehicles: [{ vin: SECRET }] },
      keyHash: SECRET,
    };
    const before = structuredClone(event);
    cap.logger.info(event, "request");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed log line; the expectations below check its shape
    const [line] = cap.records() as [Record<string, any>];
    expect(cap.text()).not.toContain(SECRET);
    expect(line.authorization).toBe(REDACTED);
    expect(line.key_id).toBe("key_123");
    expect(line.tenant).toEqual({ ingestSecret: REDACTED, ingest_secret: REDACTED, name: "Acme" });
    expect(line.headers).toEqual({ "x-api-key": REDACTED, Authorization: REDACTED, "content-type": "application/json" });
    expect(line.deep.a.b.c).toEqual({ password: REDACTED, api_key: REDACTED, access_token: REDACTED });
    expect(line.batch).toEqual([{ body: REDACTED }, { params: REDACTED }]);
    expect(line.body).toBe(REDACTED);
    expect(line.keyHash).toBe(REDACTED);
    expect(event).toEqual(before); // the caller's object is left alone
  });

  it("censors child bindings (pino redact paths)", () => {
    const cap = captureLog();
    const child = requestLogger(REQ, cap.logger).child({ body: SECRET, tenant: { ingest_secret: SECRET }, device_id: "d-1" });
    child.info("bound");
    expect(cap.records()[0]).toMatchObject({ body: REDACTED, tenant: { ingest_secret: REDACTED }, device_id: "d-1", request_id: REQ.requestId });
    expect(cap.text()).not.toContain(SECRET);
  });

  it("redacts printf-style arguments like fields", () => {
    const cap = captureLog();
    cap.logger.info("got %j", { password: SECRET, n: 1 });
    expect(cap.records()[0]?.msg).toBe(`got {"password":"${REDACTED}","n":1}`);
  });

  it("cuts long strings and arrays, and logs binary data by size", () => {
    const cap = captureLog();
    cap.logger.info({ note: "x".repeat(5000), ids: Array.from({ length: 80 }, (_, i) => i), raw: Buffer.from(SECRET) }, "sizes");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed log line; the expectations below check its shape
    const [line] = cap.records() as [Record<string, any>];
    expect(line.note).toBe(`${"x".repeat(1000)}…[5000 chars]`);
    expect(line.ids).toHaveLength(51);
    expect(line.ids[50]).toBe("[30 more]");
    expect(line.raw).toBe(`[binary ${SECRET.length} bytes]`);
  });

  it("spells the pino redact paths with names that the pattern also censors", () => {
    for (const name of SENSITIVE_FIELD_NAMES) expect(isSensitiveName(name), name).toBe(true);
    for (const name of ["key_id", "keyId", "request_id", "operation", "device_id", "tenant_id", "error_class", "statement", "constraint", "message"]) {
      expect(isSensitiveName(name), name).toBe(false);
    }
  });
});
