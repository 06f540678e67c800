import type { PublicCtx } from "@/lib/context";
import { env } from "@/lib/env";
import { UpstreamUnavailableError } from "@/lib/errors";
import type { SpotPricesAnswer } from "@/lib/schemas/energy";
import { readCachedSeries, writeCachedSeries, type CachedSeries } from "./cache";
import { RECORDED_FETCHED_AT, RECORDED_VAT_RATE, recordedSeries } from "./recorded";
import type { SpotSeries } from "./series";
import { DEFAULT_BASE_URLS, fetchFromSource, sourceKey, type SourceConfig } from "./sources";
import { UpstreamFetchError } from "./sources/upstream-error";
import { FI_ELECTRICITY_VAT_RATE, round3, withAndWithoutVat } from "./vat";

/** Prices younger than this are served from the cache without asking the source (issue 10: 15 minutes). */
const CACHE_TTL_MS = 15 * 60_000;
/** With the source down, cached prices are served (marked stale) until they are this old. */
const STALE_LIMIT_MS = 24 * 60 * 60_000;

interface SpotPriceSettings {
  source: SourceConfig;
  offlineFallback: boolean;
  retryAfterFailureMs: number;
}

function spotPriceSettings(): SpotPriceSettings {
  const e = env();
  return {
    source: {
      name: e.SPOT_PRICE_SOURCE,
      baseUrl: e.SPOT_PRICE_BASE_URL ?? DEFAULT_BASE_URLS[e.SPOT_PRICE_SOURCE],
      timeoutMs: e.SPOT_PRICE_TIMEOUT_MS,
      token: e.SPOT_PRICE_ENTSOE_TOKEN,
    },
    offlineFallback: e.SPOT_PRICE_OFFLINE_FALLBACK,
    retryAfterFailureMs: e.SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS * 1000,
  };
}

/**
 * Single flight per process: concurrent requests that all miss share one fetch (and one cache write)
 * instead of each asking the source. Across instances the shared cache row does the same job once
 * the first fetch lands.
 */
const inFlight = new Map<string, Promise<CachedSeries>>();

/**
 * When each source last failed (this process). For SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS after a
 * failure the source is not asked again: an offline laptop would otherwise wait out a DNS failure or
 * the full timeout on every request before getting the stale or recorded answer it gets anyway.
 */
const lastFailureAt = new Map<string, number>();

function fetchOnce(key: string, ctx: PublicCtx, config: SourceConfig): Promise<CachedSeries> {
  const running = inFlight.get(key);
  if (running) return running;
  const p = (async () => {
    const series = await fetchFromSource(config);
    const entry = { series, fetchedAt: new Date() };
    await writeCachedSeries(ctx.db, key, entry);
    return entry;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, p);
  return p;
}

/**
 * Pure: a series and how it was obtained → the answer body (SPEC 2.12 + VAT split and staleness).
 * `vatRate`: the VAT the series' prices include (today's unless said otherwise; the recorded day's own).
 */
export function spotPricesAnswer(series: SpotSeries, how: { cached: boolean; fetchedAt: Date; staleSince: Date | null; vatRate?: number }): SpotPricesAnswer {
  const vatRate = how.vatRate ?? FI_ELECTRICITY_VAT_RATE;
  return {
    market: "FI",
    source: series.source,
    cached: how.cached,
    fetched_at: how.fetchedAt.toISOString(),
    stale: how.staleSince !== null,
    stale_since: how.staleSince?.toISOString() ?? null,
    resolution: series.resolution,
    vat_rate_pct: round3(vatRate * 100),
    prices: series.points.map((p) => {
      const { with_vat, without_vat } = withAndWithoutVat(p.priceWithVat, vatRate);
      return {
        start: new Date(p.startMs).toISOString(),
        end: new Date(p.endMs).toISOString(),
        price_cents_kwh: with_vat,
        price_cents_kwh_with_vat: with_vat,
        price_cents_kwh_without_vat: without_vat,
      };
    }),
  };
}

/** A price series and how it was obtained. */
interface ObtainedSeries {
  series: SpotSeries;
  cached: boolean;
  fetchedAt: Date;
  staleSince: Date | null;
  /** True for the shipped recorded day (at its own 2024 times): real prices, but not today's market. */
  recorded: boolean;
  /** The VAT rate the prices include. */
  vatRate: number;
}

/**
 * The prices every consumer reads (endpoint 14, the charging recommendation). Fresh cache (< 15 min) →
 * served with `cached: true`, the source not asked. Otherwise the source is asked (once per process
 * however many requests wait); if it fails: the cached prices when younger than 24 h (stale), else the
 * recorded day when `allowRecorded` (and SPOT_PRICE_OFFLINE_FALLBACK is on) — at its own 2024 times,
 * with its own day's VAT, fetched when ENTSO-E answered it, so stale since long ago (CONTRACT: a recorded
 * day answers `stale: true`, `cached: false`) — else UpstreamUnavailableError.
 */
export async function obtainSpotSeries({ ctx, now, allowRecorded }: { ctx: PublicCtx; now?: number; allowRecorded: boolean }): Promise<ObtainedSeries> {
  const settings = spotPriceSettings();
  const key = sourceKey(settings.source);
  const at = now ?? Date.now();
  const cached = await readCachedSeries(ctx.db, key);
  if (cached && at - cached.fetchedAt.getTime() < CACHE_TTL_MS) {
    return { series: cached.series, cached: true, fetchedAt: cached.fetchedAt, staleSince: null, recorded: false, vatRate: FI_ELECTRICITY_VAT_RATE };
  }
  try {
    const failedAt = lastFailureAt.get(key);
    if (failedAt !== undefined && at - failedAt < settings.retryAfterFailureMs) {
      throw new UpstreamFetchError("the source failed moments ago and is not asked again yet", "backoff");
    }
    const fresh = await fetchOnce(key, ctx, settings.source);
    lastFailureAt.delete(key);
    return { series: fresh.series, cached: false, fetchedAt: fresh.fetchedAt, staleSince: null, recorded: false, vatRate: FI_ELECTRICITY_VAT_RATE };
  } catch (err) {
    if (!(err instanceof UpstreamFetchError)) throw err;
    if (err.reason !== "backoff") lastFailureAt.set(key, Date.now());
    ctx.log.warn({ source: settings.source.name, reason: err.reason }, `spot prices: ${err.message}`);
    if (cached && at - cached.fetchedAt.getTime() < STALE_LIMIT_MS) {
      return {
        series: cached.series,
        cached: true,
        fetchedAt: cached.fetchedAt,
        staleSince: new Date(cached.fetchedAt.getTime() + CACHE_TTL_MS),
        recorded: false,
        vatRate: FI_ELECTRICITY_VAT_RATE,
      };
    }
    if (allowRecorded && settings.offlineFallback) {
      return {
        series: recordedSeries(),
        cached: false,
        fetchedAt: RECORDED_FETCHED_AT,
        staleSince: new Date(RECORDED_FETCHED_AT.getTime() + CACHE_TTL_MS),
        recorded: true,
        vatRate: RECORDED_VAT_RATE,
      };
    }
    throw new UpstreamUnavailableError("The spot-price source is unavailable and no prices fetched in the last 24 hours are cached; try again later.");
  }
}

/** Endpoint 14: the prices as obtainSpotSeries finds them, the recorded day included when the source is down. */
export async function getSpotPrices({ ctx, now }: { ctx: PublicCtx; input?: Record<string, never>; now?: number }): Promise<SpotPricesAnswer> {
  const got = await obtainSpotSeries({ ctx, now, allowRecorded: true });
  return spotPricesAnswer(got.series, got);
}
