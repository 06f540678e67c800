import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Operation, wireBody } from "@/lib/operations/define-operation";
import { OPERATIONS } from "@/lib/operations/registry";
import { rootLogger } from "@/lib/log/logger";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { tenantDataState } from "../helpers/counts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices, issueCertificate, OFFLINE_SPOT_PRICE_URL } from "../helpers/fixtures";

/** A certificate of the tenant, so that the certificate operations have something to find. */
let ownCertificate: string;
/** A webhook of the tenant, so that the webhook operations have something to find (until the deletion's fuzz deletes it). */
let ownWebhook: string;
import { exampleParts } from "../helpers/operation-requests";
import { openApiDocument } from "@/lib/openapi/document";
import { openApiResponseErrors } from "../helpers/openapi-response-validator";

function documentsStatus(op: Operation, status: number): boolean {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  return doc.paths[op.path]?.[op.method.toLowerCase()]?.responses[String(status)] !== undefined;
}
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * Hostile input never gets a 5xx, and a refused request writes nothing. For every operation of the
 * registry, fast-check throws arbitrary strings (NUL, lone surrogates, any Unicode, malformed
 * percent-encoding), numbers (huge, negative, fractional, exponent forms) and JSON (deep, duplicated,
 * wrongly typed, the example with one member replaced) at its path, query and body. Each answer must
 * be < 500, in the CONTRACT envelope with X-Request-Id when it is an error, and when it is not a 2xx
 * the tenant's rows (counted and fingerprinted in the database, updates included) must not have changed.
 * Every JSON answer must also validate against the published OpenAPI document's schema for its status
 * (tests/helpers/openapi-response-validator.ts): the class of the 44 fuzzer findings of issue 28.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db);
  await insertDevices(tdb.handle.db, t.tenantId, [{ deviceId: "dev-a", odometerKm: 12_345, socPct: 55, powertrain: "BEV", batteryKwh: 64 }, { deviceId: "dev.b:2" }]);
  ownCertificate = await issueCertificate(tdb.handle.db, t.tenantId, "dev-a");
  ownWebhook = (
    await createWebhook({
      ctx: { db: tdb.handle.db, tenantId: t.tenantId, isSandbox: false, log: rootLogger() },
      input: { url: "https://93.184.215.14/hook", events: ["alert.created"] },
    })
  ).id;
  app = await startRouteServer({
    db: tdb.handle,
    env: {
      RATE_LIMIT_API_PER_MIN: "1000000",
      RATE_LIMIT_AUTH_PER_MIN: "1000000",
      RATE_LIMIT_PUBLIC_PER_MIN: "1000000",
      REDIS_URL: undefined,
      DATABASE_URL: tdb.url,
      SPOT_PRICE_BASE_URL: OFFLINE_SPOT_PRICE_URL,
    },
  });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Percent-encodes every UTF-16 unit outside the unreserved set; a lone surrogate goes out as its WTF-8 bytes. */
function percentEncode(s: string): string {
  let out = "";
  for (const ch of s) {
    if (/^[A-Za-z0-9\-._~]$/.test(ch)) out += ch;
    else {
      const cp = ch.codePointAt(0) ?? 0;
      const bytes =
        cp < 0x80
          ? [cp]
          : cp < 0x800
            ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
            : cp < 0x10000
              ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
              : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
    }
  }
  return out;
}

/** Characters Postgres or UTF-8 cannot hold, somewhere inside an otherwise ordinary string. */
const poisoned = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\u0000", "\udc00", "\ud800", "\udfff\ud800", "\u0000\u0000"), fc.string({ maxLength: 8 }))
  .map(([a, p, b]) => a + p + b);
const hostileString = fc.oneof(
  { weight: 3, arbitrary: poisoned },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "null",
      "true",
      "-1",
      "0",
      "1e400",
      "NaN",
      "Infinity",
      "9".repeat(400),
      "x".repeat(129),
      "x".repeat(5000),
      "..",
      ".",
      "%",
      "%FF",
      "' or 1=1--",
      "{}",
      "[]",
      "0000-01-01T00:00:00Z",
      "9999-12-31T23:59:59Z",
      "2026-02-30T00:00:00Z",
    ),
  },
);
const hostileNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, -1, 1e308, -1e308, 2 ** 53 + 1, 1e-320, 101, 100.5, 500.0001));
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, { vehicle: { make: "\u0000" } }, [[[[[[]]]]]]),
);
/** Date-times at and past every bound: year 0, offsets that cross into year 0, the epoch, far future, non-dates. */
const hostileDateTime = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "0000-01-01T00:00:00Z",
      "0001-01-01T00:00:00+14:00",
      "1970-01-01T00:00:00Z",
      "1999-12-31T23:59:59Z",
      "9999-12-31T23:59:59Z",
      "2026-02-30T00:00:00Z",
      "2026-11-23T23:59:60Z",
      "2026-11-23T10:00:00",
      "2026-11-23",
      "+275760-09-13T00:00:00Z",
    ),
  },
  { weight: 1, arbitrary: fc.date({ min: new Date(-62_167_219_200_000), max: new Date(253_402_300_799_000), noInvalidDate: true }).map((d) => d.toISOString()) },
);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** A hostile value of the same kind as `original` (a date-time for a date-time, a number for a number…). */
function hostileLike(original: unknown, pick: { date: string; text: string; number: number; any: unknown }): unknown {
  if (typeof original === "string") return ISO_DATE_TIME.test(original) ? pick.date : pick.text;
  if (typeof original === "number") return pick.number;
  return pick.any;
}

/** Raw query text: encoded pairs, stray `%`, repeated names. */
const rawQueryText = fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("&"));

interface FuzzRequest {
  path: Record<string, string>;
  query: string;
  body?: Uint8Array | string;
  contentType: string;
}

/** Paths of the date-time strings in a JSON value. */
function dateTimePaths(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof v === "string") return ISO_DATE_TIME.test(v) ? [path] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => dateTimePaths(x, [...path, i]));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => dateTimePaths(x, [...path, k]));
  return [];
}

/** A copy of `v` with the value at `path` replaced. */
function setAt(v: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, value) : x));
  return { ...(v as object), [head as string]: setAt((v as Record<string, unknown>)[head as string], rest, value) };
}

/** Nodes of a JSON value (itself, members, elements), in document order. */
function countNodes(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + countNodes(x), 0);
  if (v && typeof v === "object") return 1 + Object.values(v).reduce((n: number, x) => n + countNodes(x), 0);
  return 1;
}

/** The `pick`-th node of a JSON value replaced by `replacement(node)`, or (for an object node) given one more member. */
function mutate(value: unknown, pick: number, how: "replace" | "add", name: string, replacement: (original: unknown) => unknown): unknown {
  let n = 0;
  const walk = (v: unknown): unknown => {
    const here = n++ === pick;
    if (here && (how === "replace" || !v || typeof v !== "object" || Array.isArray(v))) return replacement(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return here ? { ...out, [name]: replacement(undefined) } : out;
    }
    return v;
  };
  return walk(value);
}

function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const example = exampleParts(op);
  const path = fc.record(
    Object.fromEntries(
      op.pathParams.map((name) => [
        name,
        fc.oneof(
          fc.constantFrom("dev-a", "dev.b:2", "unknown-1", ownCertificate, "FDP-CERT-20200101-NONE0", ownWebhook, "wh_00000000000000000000"),
          hostileString.map(percentEncode),
          fc.string({ maxLength: 12 }),
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const declared = Object.keys(op.input.query?.shape ?? {});
  const queryValue = fc.oneof(hostileString, hostileNumber.map(String), fc.constantFrom("1", "30d", "365d", "366d", "0d", "CRITICAL", "info", "false", "TRUE", "500", "501"));
  const structuredQuery = fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom(...(declared.length > 0 ? declared : ["x"])), queryValue), { maxLength: 4 }),
      fc.array(fc.tuple(fc.string({ maxLength: 6 }), queryValue), { maxLength: 2 }),
    )
    .map(([known, extra]) => [...known, ...extra].map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&"));
  // The example's query with at most one member hostile: an operation with required query parameters
  // (dates of the reports) is otherwise never reached past validation.
  const exampleQuery = Object.entries(example.query ?? {}) as [string, string][];
  const exampleWithOneHostile = fc
    .tuple(fc.nat({ max: exampleQuery.length }), queryValue)
    .map(([i, v]) => exampleQuery.map(([k, x], j) => `${percentEncode(k)}=${percentEncode(j === i ? v : x)}`).join("&"));
  const query = fc.oneof(
    { weight: 4, arbitrary: structuredQuery },
    { weight: 1, arbitrary: rawQueryText },
    ...(exampleQuery.length > 0 ? [{ weight: 2, arbitrary: exampleWithOneHostile }] : []),
  );
  // The tenant's own device, certificate or webhook in every path parameter: what an accepted request names.
  const acceptedPath = Object.fromEntries(op.pathParams.map((name) => [name, name === "certificate_number" ? ownCertificate : name === "webhook_id" ? ownWebhook : "dev-a"]));
  if (!op.input.body) {
    // The example as it is, aimed at the tenant's own device or certificate: a request the operation
    // accepts, so that the run reaches both sides of validation (the charging plan, whose path must
    // name the one EV and whose query must all be valid, was otherwise refused 200 times in a run now
    // and then: ~2 % of its random requests pass).
    const accepted: FuzzRequest = {
      path: acceptedPath,
      query: exampleQuery.map(([k, x]) => `${percentEncode(k)}=${percentEncode(x)}`).join("&"),
      contentType: "application/json",
    };
    return fc.oneof({ weight: 1, arbitrary: fc.constant(accepted) }, { weight: 9, arbitrary: fc.record({ path, query, contentType: fc.constant("application/json") }) });
  }
  // What a client sends: the body members, or (an operation whose whole body is one member) that member's value.
  const exampleBody = wireBody(op, example.body);
  const bodyNames = Object.keys(op.bodyMember === undefined ? op.input.body.shape : (exampleBody as object));

  const body = fc.oneof(
    // The example as it is: a request the operation accepts, so the run always reaches both sides of
    // validation (without it an operation whose every mutation is refused, like the scores batch with
    // ~2 % accepted, gave 200 refusals in a run now and then).
    { weight: 1, arbitrary: fc.constant(JSON.stringify(exampleBody)) },
    // The example with one member somewhere replaced by hostile JSON (most requests get deep into validation).
    {
      weight: 6,
      arbitrary: fc
        .record({
          pick: fc.nat(countNodes(exampleBody) - 1),
          how: fc.constantFrom<"replace" | "add">("replace", "add"),
          name: hostileString,
          sameKind: fc.boolean(),
          date: hostileDateTime,
          text: hostileString,
          number: hostileNumber,
          any: hostileJson,
        })
        // Half the time the replacement is of the node's own kind, so that type checks pass and the bounds behind them are reached.
        .map((m) => JSON.stringify(mutate(exampleBody, m.pick, m.how, m.name, (original) => (m.sameKind ? hostileLike(original, m) : m.any)))),
    },
    // A device time at or past its bounds (year 0, offsets into year 0, the far future, not a date).
    ...(dateTimePaths(exampleBody).length > 0
      ? [
          {
            weight: 2,
            arbitrary: fc.tuple(fc.constantFrom(...dateTimePaths(exampleBody)), hostileDateTime).map(([path, value]) => JSON.stringify(setAt(exampleBody, path, value))),
          },
        ]
      : []),
    // Each declared member hostile.
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...bodyNames), hostileJson, { maxKeys: 3 }).map((o) => JSON.stringify(o)) },
    // Any JSON at all, and not JSON at all.
    { weight: 1, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? "null") },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    // A repeated member name, and nesting far past the bound.
    { weight: 1, arbitrary: fc.constant(JSON.stringify(exampleBody).replace(/^\{/, `{${JSON.stringify(bodyNames[0])}:1,`)) },
    { weight: 1, arbitrary: fc.integer({ min: 30, max: 3000 }).map((d) => `{"${bodyNames[0]}":${"[".repeat(d)}${"]".repeat(d)}}`) },
  );
  const contentType = fc.oneof(
    { weight: 9, arbitrary: fc.constant("application/json") },
    { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/json; charset=utf-16", "") },
  );
  // With a body and a path (a webhook's replay), both must be valid to be accepted: a third of the paths name the tenant's own.
  const bodyPath = op.pathParams.length > 0 ? fc.oneof({ weight: 1, arbitrary: fc.constant(acceptedPath) }, { weight: 2, arbitrary: path }) : path;
  return fc.record({ path: bodyPath, query, body, contentType });
}

// ---------------------------------------------------------------------------------------------

describe.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))("fuzz %s", (_, op) => {
  // 200 requests each with a database fingerprint: 13 s alone for certificate generation (a signed PDF per
  // accepted request), 60 s under a loaded CI run on a slow day. The bound is for a hang, not a speed test.
  it(`${RUNS} hostile requests: no 5xx, errors in the envelope, nothing written when refused`, { timeout: 240_000 }, async () => {
    const statuses = new Map<number, number>();
    // The state after one request is the state before the next: one fingerprint per request, not two.
    let state = await tenantDataState(tdb.handle.db, t.tenantId);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(op), async (r) => {
        const before = state;
        // The arbitrary already percent-encodes path parameters (pathFor would encode them again).
        const target = `/api/v1${op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => r.path[name] ?? "")}${r.query ? `?${r.query}` : ""}`;
        const headers: Record<string, string> = r.contentType ? { "content-type": r.contentType } : {};
        let res: Response, text: string;
        try {
          res = await app.fetch(target, { key: t.key, method: op.method, headers, body: r.body as BodyInit | undefined });
          text = await res.text();
        } finally {
          state = await tenantDataState(tdb.handle.db, t.tenantId);
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${op.method} ${target}`).toBeLessThan(500);
        expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
        if (res.status >= 400) {
          const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
          expect(typeof parsed.error).toBe("string");
          expect(typeof parsed.message).toBe("string");
        }
        // Every JSON answer is what the published document says it is (a 2xx always; an error where the
        // document lists its status): a client generated from /api/v1/openapi.json can read it.
        if (res.headers.get("content-type")?.startsWith("application/json") && (res.status < 300 || documentsStatus(op, res.status))) {
          expect(openApiResponseErrors(op.method, op.path, res.status, JSON.parse(text)), `${op.method} ${target} ${res.status}: ${text.slice(0, 300)}`).toBeNull();
        }
        if (res.status < 200 || res.status >= 300) expect(state).toEqual(before);
      }),
      { numRuns: RUNS },
    );
    // The generator reaches both sides of validation, else the property says little. The draw is fixed
    // (tests/setup/fast-check-seed.ts), but FUZZ_SEED explores others: GET /energy/spot-prices once drew
    // 19 of 200 refused, so the bound is 5 %.
    const refused = [...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    expect(refused).toBeGreaterThan(RUNS / 20);
    expect(refused).toBeLessThan(RUNS);
  });
});
