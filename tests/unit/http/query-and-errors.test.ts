import { rootLogger } from "@/lib/log/logger";
import { captureLog } from "../../helpers/log-capture";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bearerToken } from "@/lib/auth/authenticate-api-key";
import { displayPrefix, generateLiveKey, hashKey, isWellFormedKey, SANDBOX_KEY } from "@/lib/auth/key-format";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { clientIpFrom, forwardedHopFromRight } from "@/lib/http/client-ip";
import { resetEnvCache } from "@/lib/env";
import { errorBodyFor, STATUS_BY_CODE } from "@/lib/http/error-response";
import { databaseFailureKind } from "@/lib/db/sql-values";
import { readRawInput } from "@/lib/http/read-input";
import { parseInput } from "@/lib/validation";
import type { Operation } from "@/lib/operations/define-operation";
import { listAlertsOperation, listFleetOperation } from "@/lib/operations/fleet";
import { getTasOperation } from "@/lib/operations/scores";

/** The REST input of a request as invokeOperation validates it. */
const read = async (op: unknown, q: string, path: Record<string, string> = {}) =>
  parseInput((op as Operation).inputSchema, await readRawInput(op as Operation, new Request(`http://x/api?${q}`), path, { db: undefined as never, log: rootLogger() }));

describe("readRawInput (query and path), validated", () => {
  it("applies defaults and parses valid values", async () => {
    expect(await read(listFleetOperation, "")).toEqual({ limit: 100 });
    expect(await read(listAlertsOperation, "limit=7&severity=info&acknowledged=FALSE&unknown=1")).toEqual({ limit: 7, severity: "INFO", acknowledged: false });
  });
  it("throws a ValidationError naming each bad field", async () => {
    const err = await read(listAlertsOperation, "limit=999&severity=LOUD").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).details?.map((d) => d.field).sort()).toEqual(["limit", "severity"]);
  });
  it("refuses a declared parameter given twice, and takes path parameters from the path only", async () => {
    const err = await read(listFleetOperation, "limit=5&limit=500").catch((e: unknown) => e);
    expect((err as ValidationError).details).toEqual([{ field: "limit", message: "given more than once" }]);
    expect(await read(getTasOperation, "device_id=other", { device_id: "sbx-001" })).toEqual({ device_id: "sbx-001" });
    const bad = await read(getTasOperation, "", { device_id: "a\u0000b" }).catch((e: unknown) => e);
    expect((bad as ValidationError).details?.[0]?.field).toBe("device_id");
  });
});

describe("errorBodyFor", () => {
  it("maps domain errors through the one status table", () => {
    expect(errorBodyFor(new NotFoundError("gone"), "req_1")).toEqual({ status: 404, body: { error: "not_found", message: "gone", request_id: "req_1" }, headers: {} });
    expect(STATUS_BY_CODE.invalid_signature).toBe(401);
  });
  it("answers the drivers' database failures 503 service_unavailable with Retry-After, logged as a warning (drizzle's wrapper and Node's AggregateError included)", () => {
    const pgError = (code: string) => Object.assign(new Error("terminating connection due to administrator command"), { code, severity: "FATAL" });
    const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1\nparams: "), { cause });
    const refused = new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" })], "");
    const cases: [unknown, string][] = [
      [wrapped(pgError("57014")), "statement_timeout"],
      [wrapped(pgError("57P01")), "connection_lost"],
      [pgError("57P03"), "unreachable"],
      [pgError("08006"), "connection_lost"],
      [Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }), "connection_lost"],
      [Object.assign(new Error("write CONNECT_TIMEOUT"), { code: "CONNECT_TIMEOUT" }), "unreachable"],
      [refused, "unreachable"],
    ];
    for (const [err, kind] of cases) {
      expect(databaseFailureKind(err), kind).toBe(kind);
      const log = captureLog();
      const { status, body, headers } = errorBodyFor(err, "req_3", log.logger);
      expect(status).toBe(503);
      expect(body).toMatchObject({ error: "service_unavailable", request_id: "req_3" });
      expect(body.message).not.toMatch(/administrator|ECONNREFUSED|select/);
      expect(headers).toEqual({ "Retry-After": "5" });
      expect(log.records()).toMatchObject([{ level: "warn", msg: "database unavailable: answered 503" }]);
    }
    // A constraint violation or a syntax error is a bug, not an outage: still the generic 500.
    expect(databaseFailureKind(wrapped(pgError("23505")))).toBeNull();
    expect(errorBodyFor(wrapped(pgError("42601")), "req_4", captureLog().logger).status).toBe(500);
  });
  it("hides unknown errors behind a generic 500, and logs them with the request id", () => {
    const log = captureLog();
    const { status, body } = errorBodyFor(new Error('relation "secret_table" does not exist'), "req_2", log.logger.child({ request_id: "req_2" }));
    expect(status).toBe(500);
    expect(body.error).toBe("internal_error");
    expect(JSON.stringify(body)).not.toContain("secret_table");
    expect(log.records()).toMatchObject([{ level: "error", request_id: "req_2", msg: "unhandled error", err: { error_class: "Error" } }]);
  });
});

describe("key format", () => {
  it("issues fdp_live_ keys of 40 base62 characters whose hash and prefix are stable", () => {
    const { key, hash, prefix } = generateLiveKey();
    expect(key).toMatch(/^fdp_live_[0-9A-Za-z]{40}$/);
    expect(hash).toBe(hashKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefix).toBe(displayPrefix(key));
    expect(key.startsWith(prefix)).toBe(true);
    expect(generateLiveKey().key).not.toBe(key);
  });
  it("rejects malformed tokens before any lookup", () => {
    expect(isWellFormedKey(SANDBOX_KEY)).toBe(true);
    expect(isWellFormedKey(`fdp_live_${"a".repeat(31)}`)).toBe(false);
    expect(isWellFormedKey(`fdp_live_${"a".repeat(32)}`)).toBe(true);
    expect(isWellFormedKey(`fdp_live_${"a".repeat(31)}-`)).toBe(false);
    expect(isWellFormedKey("fdp_sandbox_x")).toBe(false);
  });
  it("reads only Bearer tokens", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});

describe("forwardedHopFromRight", () => {
  it("takes the n-th X-Forwarded-For entry from the right, never one a client prepended", () => {
    expect(forwardedHopFromRight(" 203.0.113.7 , 10.0.0.1", 1)).toBe("10.0.0.1");
    expect(forwardedHopFromRight("6.6.6.6, 203.0.113.7, 10.0.0.1", 2)).toBe("203.0.113.7");
    expect(forwardedHopFromRight("6.6.6.6,, 203.0.113.7", 1)).toBe("203.0.113.7");
    // Fewer entries than the configured proxy chain: none is trusted (the caller falls back to the peer).
    expect(forwardedHopFromRight("203.0.113.7", 2)).toBeUndefined();
    expect(forwardedHopFromRight("", 1)).toBeUndefined();
    expect(forwardedHopFromRight(null, 1)).toBeUndefined();
  });
});

describe("clientIpFrom", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvCache();
  });
  function withEnv(vars: Record<string, string>) {
    for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
    resetEnvCache();
  }

  it("is the peer address without TRUST_PROXY, whatever X-Forwarded-For says", () => {
    withEnv({ TRUST_PROXY: "0" });
    expect(clientIpFrom("6.6.6.6", "192.0.2.1")).toBe("192.0.2.1");
  });

  it("is the right-most entry with TRUST_PROXY=1 and the n-th from the right with TRUST_PROXY_HOPS=n", () => {
    withEnv({ TRUST_PROXY: "1" });
    expect(clientIpFrom("6.6.6.6, 203.0.113.7", "10.0.0.2")).toBe("203.0.113.7");
    withEnv({ TRUST_PROXY: "1", TRUST_PROXY_HOPS: "2" });
    expect(clientIpFrom("6.6.6.6, 203.0.113.7, 10.0.0.1", "10.0.0.2")).toBe("203.0.113.7");
    expect(clientIpFrom("203.0.113.7", "10.0.0.2")).toBe("10.0.0.2");
    expect(clientIpFrom(null, null)).toBe("unknown");
  });
});
