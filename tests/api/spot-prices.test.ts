import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spotPriceCache } from "@/lib/db/schema";
import recordedDay from "@/data/spot-prices/fi-2024-02-21.json";
import { RECORDED_SOURCE } from "@/lib/energy/recorded";
import { setEnv } from "../helpers/test-env";
import { spotPricesSchema } from "@/lib/schemas/energy";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";
import { a44, quarterHourPrices, startSpotPriceFixtureServer, type FixtureMode, type SpotPriceFixtureServer } from "../helpers/spot-price-fixture-server";

/**
 * Endpoint 14 end to end: the real route, the real porssisahko.net adapter and the real shared cache
 * table, against a local server speaking porssisahko.net's format. Whether the source was asked is
 * counted at the fixture server, never taken from the answer's own `cached`.
 */
const PATH = "/api/v1/energy/spot-prices";
const MIN = 60_000;
const SLOTS = 96;
const FIRST_SLOT = Math.floor(Date.now() / (15 * MIN)) * 15 * MIN;

let tdb: TestDatabase;
let app: RouteServer;
let source: SpotPriceFixtureServer;

beforeAll(async () => {
  tdb = await createTestDatabase();
  source = await startSpotPriceFixtureServer(quarterHourPrices(FIRST_SLOT, SLOTS));
  app = await startRouteServer({
    db: tdb.handle,
    env: {
      REDIS_URL: undefined,
      DATABASE_URL: tdb.url,
      RATE_LIMIT_PUBLIC_PER_MIN: "1000",
      SPOT_PRICE_SOURCE: "porssisahko",
      SPOT_PRICE_BASE_URL: source.url,
      // Generous for healthy answers (a loaded CI run must not time out on one); the "timeout" mode
      // shortens it (sourceMode below) so a hanging source costs 300 ms, not 10 s.
      SPOT_PRICE_TIMEOUT_MS: "10000",
      SPOT_PRICE_OFFLINE_FALLBACK: "0",
      // Every failure test must reach the source; the back-off has its own test below.
      SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS: "0",
    },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await source?.close();
  await tdb?.dispose();
});

beforeEach(async () => {
  sourceMode("ok");
  source.delayMs = 0;
  setFallback(false);
  setEnv({ SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS: "0" });
  await tdb.handle.db.delete(spotPriceCache);
});

/** The fixture source's behaviour, with the client's timeout to match: short only where the source hangs. */
function sourceMode(mode: FixtureMode): void {
  source.mode = mode;
  setEnv({ SPOT_PRICE_TIMEOUT_MS: mode === "timeout" ? "300" : "10000" });
}

function setFallback(on: boolean): void {
  setEnv({ SPOT_PRICE_OFFLINE_FALLBACK: on ? "1" : "0" });
}

/** Moves the cached row's fetch time back by `minutes` (the clock the cache is judged by is the server's). */
async function ageCache(minutes: number): Promise<void> {
  await tdb.handle.db.update(spotPriceCache).set({ fetchedAt: sql`${spotPriceCache.fetchedAt} - make_interval(mins => ${minutes})` });
}

async function get(): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await app.fetch(PATH); // no key: the endpoint is public
  return { res, body: (await res.json()) as Record<string, unknown> };
}

async function getOk() {
  const { res, body } = await get();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { res, body: spotPricesSchema.parse(body) };
}

describe("GET /energy/spot-prices: the cache, counted at the source", () => {
  it("a miss asks the source once and answers cached:false with its prices, 15-minute slots kept", async () => {
    const before = source.requests;
    const { res, body } = await getOk();
    expect(source.requests - before).toBe(1);
    expect(body).toMatchObject({ market: "FI", source: "porssisahko.net", cached: false, stale: false, stale_since: null, resolution: "PT15M", vat_rate_pct: 25.5 });
    expect(body.prices).toHaveLength(SLOTS);
    // Sorted oldest first (the source sends newest first), each slot exactly 15 minutes, prices as sent.
    const sent = [...source.prices].reverse();
    body.prices.forEach((p, i) => {
      expect(p.start).toBe(sent[i]!.startDate);
      expect(p.end).toBe(sent[i]!.endDate);
      expect(Date.parse(p.end) - Date.parse(p.start)).toBe(15 * MIN);
      expect(p.price_cents_kwh).toBe(sent[i]!.price);
    });
    expect(res.headers.get("ratelimit-limit")).toBe("1000");
    expect(Number(res.headers.get("ratelimit-remaining"))).toBeLessThan(1000);
    expect(res.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
  });

  it("with and without VAT agree with 25.5 % on every slot (negative prices included)", async () => {
    const { body } = await getOk();
    expect(body.prices.some((p) => p.price_cents_kwh < 0)).toBe(true);
    for (const p of body.prices) {
      expect(p.price_cents_kwh_with_vat).toBe(p.price_cents_kwh);
      expect(Math.abs(p.price_cents_kwh_without_vat * 1.255 - p.price_cents_kwh_with_vat)).toBeLessThanOrEqual(0.001);
    }
  });

  it("a hit within 15 minutes answers cached:true and the source receives no request", async () => {
    const first = await getOk();
    const after = source.requests;
    await ageCache(14);
    const second = await getOk();
    expect(source.requests).toBe(after);
    expect(second.body.cached).toBe(true);
    expect(second.body.stale).toBe(false);
    expect(Date.parse(second.body.fetched_at)).toBe(Date.parse(first.body.fetched_at) - 14 * MIN);
    expect(second.body.prices).toEqual(first.body.prices);
  });

  it("after 15 minutes the source is asked again and the answer is cached:false with a new fetched_at", async () => {
    await getOk();
    await ageCache(16);
    const before = source.requests;
    const { body } = await getOk();
    expect(source.requests - before).toBe(1);
    expect(body.cached).toBe(false);
    expect(Date.now() - Date.parse(body.fetched_at)).toBeLessThan(MIN);
  });

  it("concurrent misses in one process fetch once (single flight)", async () => {
    source.delayMs = 200;
    const before = source.requests;
    const answers = await Promise.all(Array.from({ length: 5 }, () => getOk()));
    expect(source.requests - before).toBe(1);
    expect(new Set(answers.map((a) => a.body.fetched_at)).size).toBe(1);
  });
});

describe("GET /energy/spot-prices: the source down", () => {
  it.each(["500", "timeout", "malformed", "empty"] as const)("%s with prices cached < 24 h → the cached prices, stale:true", async (mode) => {
    const fresh = await getOk();
    await ageCache(3 * 60);
    sourceMode(mode);
    const before = source.requests;
    const { body } = await getOk();
    expect(source.requests - before).toBe(1); // it did ask
    expect(body).toMatchObject({ cached: true, stale: true, source: "porssisahko.net" });
    const fetchedAt = Date.parse(body.fetched_at);
    expect(fetchedAt).toBe(Date.parse(fresh.body.fetched_at) - 3 * 60 * MIN);
    expect(Date.parse(body.stale_since ?? "")).toBe(fetchedAt + 15 * MIN);
    expect(body.prices).toEqual(fresh.body.prices);
  });

  it("nothing cached and the fallback off → 503 upstream_unavailable in the CONTRACT envelope", async () => {
    sourceMode("500");
    const { res, body } = await get();
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ error: "upstream_unavailable", message: expect.any(String) });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("ratelimit-limit")).toBe("1000");
  });

  it("cached prices older than 24 h are not served: 503 with the fallback off", async () => {
    await getOk();
    await ageCache(24 * 60 + 1);
    sourceMode("timeout");
    const { res, body } = await get();
    expect(res.status).toBe(503);
    expect(body.error).toBe("upstream_unavailable");
  });

  it("nothing cached and the fallback on → the recorded day as it was: stale, not cached, its own dates, its own day's 24 % VAT", async () => {
    setFallback(true);
    sourceMode("malformed");
    const { body } = await getOk();
    // CONTRACT "Evidence and trust", endpoint 14.
    expect(body).toMatchObject({ source: RECORDED_SOURCE, cached: false, stale: true, resolution: "PT60M" });
    expect(RECORDED_SOURCE).toBe("recorded:2024-02-21");
    // Not today's prices: every slot keeps its real time on 21 Feb 2024 (Helsinki), none covers now.
    expect(body.prices).toHaveLength(24);
    expect(body.prices[0]!.start).toBe("2024-02-20T22:00:00.000Z");
    expect(body.prices[23]!.end).toBe("2024-02-21T22:00:00.000Z");
    const now = Date.now();
    expect(body.prices.some((p) => Date.parse(p.start) <= now && now < Date.parse(p.end))).toBe(false);
    // fetched_at: when ENTSO-E answered the recorded document; stale since 15 minutes after that.
    expect(body.fetched_at).toBe("2024-02-21T06:43:15.000Z");
    expect(body.stale_since).toBe("2024-02-21T06:58:15.000Z");
    // The VAT in force on 21 Feb 2024 was 24 % (25.5 % only from 1 Sep 2024): the exchange's price × 1.24.
    expect(body.vat_rate_pct).toBe(24);
    body.prices.forEach((p, i) => {
      const exchange = recordedDay.points[i]!.eur_mwh_without_vat / 10;
      expect(p.start).toBe(new Date(Date.parse(recordedDay.points[i]!.utc_start)).toISOString());
      expect(p.price_cents_kwh_without_vat).toBe(Math.round(exchange * 1000) / 1000);
      expect(p.price_cents_kwh).toBe(Math.round(exchange * 1.24 * 1000) / 1000);
      expect(p.price_cents_kwh_with_vat).toBe(p.price_cents_kwh);
    });
    expect(body.prices[0]!.price_cents_kwh).toBe(4.465); // 36.01 EUR/MWh → 3.601 c/kWh × 1.24
    // The recorded series is not written to the cache: a live answer replaces it as soon as there is one.
    sourceMode("ok");
    const live = await getOk();
    expect(live.body).toMatchObject({ source: "porssisahko.net", cached: false, stale: false, vat_rate_pct: 25.5 });
  });

  it("the fallback never hides cached prices: stale cache < 24 h wins over the recorded day", async () => {
    await getOk();
    await ageCache(60);
    setFallback(true);
    sourceMode("500");
    const { body } = await getOk();
    expect(body).toMatchObject({ source: "porssisahko.net", stale: true });
  });

  it("after a failure the source is left alone for SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS (no wait for a dead source on every request)", async () => {
    await getOk(); // a success forgets earlier tests' failures
    await tdb.handle.db.delete(spotPriceCache);
    setEnv({ SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS: "60" });
    setFallback(true);
    sourceMode("timeout");
    const before = source.requests;
    const first = await getOk();
    expect(source.requests - before).toBe(1);
    sourceMode("ok"); // back, but not asked until the back-off has passed
    const second = await getOk();
    // Counted at the fixture source, not timed: the source was not asked again, and its answer
    // ("ok" now) would have shown as porssisahko.net below.
    expect(source.requests - before).toBe(1);
    expect([first.body.source, second.body.source]).toEqual([RECORDED_SOURCE, RECORDED_SOURCE]);
    setEnv({ SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS: "0" });
    expect((await getOk()).body.source).toBe("porssisahko.net");
    expect(source.requests - before).toBe(2);
  });
});

describe("GET /energy/spot-prices with SPOT_PRICE_SOURCE=entsoe (A44 XML)", () => {
  it("asks with the token and the FI zone, fills the A03 gaps, and converts EUR/MWh without VAT to c/kWh with VAT", async () => {
    setEnv({ SPOT_PRICE_SOURCE: "entsoe" });
    setEnv({ SPOT_PRICE_ENTSOE_TOKEN: "test-token" });
    try {
      source.entsoeXml = a44([
        {
          start: "2026-01-14T23:00Z",
          end: "2026-01-15T00:00Z",
          resolution: "PT15M",
          curveType: "A03",
          points: [
            [1, 40],
            [3, 80],
          ],
        },
      ]);
      const before = source.requests;
      const { body } = await getOk();
      expect(source.requests - before).toBe(1);
      expect(source.lastEntsoeQuery?.get("securityToken")).toBe("test-token");
      expect(source.lastEntsoeQuery?.get("documentType")).toBe("A44");
      expect(source.lastEntsoeQuery?.get("in_Domain")).toBe("10YFI-1--------U");
      expect(body).toMatchObject({ source: "transparency.entsoe.eu", cached: false, resolution: "PT15M" });
      expect(body.prices.map((p) => [p.start, p.price_cents_kwh, p.price_cents_kwh_without_vat])).toEqual([
        ["2026-01-14T23:00:00.000Z", 5.02, 4],
        ["2026-01-14T23:15:00.000Z", 5.02, 4],
        ["2026-01-14T23:30:00.000Z", 10.04, 8],
        ["2026-01-14T23:45:00.000Z", 10.04, 8],
      ]);
      // Its own cache row: the porssisahko series cached under another key is not served for it.
      expect((await getOk()).body).toMatchObject({ source: "transparency.entsoe.eu", cached: true });
    } finally {
      setEnv({ SPOT_PRICE_SOURCE: "porssisahko" });
    }
  });
});
