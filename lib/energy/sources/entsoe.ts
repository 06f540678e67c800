import { FI_ELECTRICITY_VAT_RATE } from "../vat";
import { resolutionOf, sortedUnique, type SpotPoint, type SpotSeries } from "../series";
import { UpstreamFetchError } from "./upstream-error";

/**
 * ENTSO-E Transparency Platform, day-ahead prices (document type A44) for the Finnish bidding zone
 * (EIC 10YFI-1--------U): `GET {base}/api?documentType=A44&in_Domain=…&out_Domain=…&periodStart=…&
 * periodEnd=…&securityToken=…` → a Publication_MarketDocument of TimeSeries > Period (timeInterval
 * start/end, resolution PT15M/PT60M) > Point (position from 1, price.amount in EUR/MWh WITHOUT VAT).
 *
 * Curve type A03 ("variable sized block") omits a position whose price equals the previous one: a
 * missing position repeats the last given price, up to the end of the period. Under A01 (fixed
 * blocks, the default when curveType is absent) every position is listed, and a missing one is a gap
 * that is left out, never invented. "No data" comes back as an Acknowledgement_MarketDocument.
 */
const ENTSOE_SOURCE = "transparency.entsoe.eu";
const FI_BIDDING_ZONE_EIC = "10YFI-1--------U";

const RESOLUTION_MS: Record<string, number> = { PT15M: 15 * 60_000, PT30M: 30 * 60_000, PT60M: 60 * 60_000 };

function blocks(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:\\w+:)?${tag}>([\\s\\S]*?)</(?:\\w+:)?${tag}>`, "g"))].map((m) => m[1] ?? "");
}
function first(xml: string, tag: string): string | undefined {
  return blocks(xml, tag)[0]?.trim();
}
/** ENTSO-E writes instants as `2026-01-15T23:00Z` (no seconds). */
function instant(text: string | undefined): number {
  return text === undefined ? Number.NaN : Date.parse(text.replace(/T(\d\d:\d\d)Z$/, "T$1:00Z"));
}

/** EUR/MWh without VAT → c/kWh with Finnish VAT (1 EUR/MWh = 0.1 c/kWh). */
export function eurPerMwhToCentsWithVat(eurPerMwh: number): number {
  return (eurPerMwh / 10) * (1 + FI_ELECTRICITY_VAT_RATE);
}

/** Pure: one Period's points, A03 gaps filled as the format defines, A01 gaps left out. */
export function expandPeriod(args: { startMs: number; endMs: number; stepMs: number; curveType: string; points: ReadonlyMap<number, number> }): SpotPoint[] {
  const { startMs, endMs, stepMs, curveType, points } = args;
  const count = Math.round((endMs - startMs) / stepMs);
  const out: SpotPoint[] = [];
  let last: number | undefined;
  for (let pos = 1; pos <= count; pos++) {
    const given = points.get(pos);
    const price = given ?? (curveType === "A03" ? last : undefined);
    if (given !== undefined) last = given;
    if (price === undefined) continue;
    const s = startMs + (pos - 1) * stepMs;
    out.push({ startMs: s, endMs: s + stepMs, priceWithVat: eurPerMwhToCentsWithVat(price) });
  }
  return out;
}

export function parseEntsoeA44(xml: string): SpotSeries {
  if (/<(?:\w+:)?Acknowledgement_MarketDocument[\s>]/.test(xml)) throw new UpstreamFetchError("ENTSO-E answered no data for the period", "empty");
  if (!/<(?:\w+:)?Publication_MarketDocument[\s>]/.test(xml)) throw new UpstreamFetchError("ENTSO-E answered a document that is not an A44 publication", "malformed");
  const points: SpotPoint[] = [];
  for (const ts of blocks(xml, "TimeSeries")) {
    const curveType = first(ts, "curveType") ?? "A01";
    for (const period of blocks(ts, "Period")) {
      const interval = first(period, "timeInterval") ?? "";
      const startMs = instant(first(interval, "start"));
      const endMs = instant(first(interval, "end"));
      const stepMs = RESOLUTION_MS[first(period, "resolution") ?? ""];
      if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs <= startMs || stepMs === undefined) {
        throw new UpstreamFetchError("ENTSO-E answered a Period without a usable interval or resolution", "malformed");
      }
      const given = new Map<number, number>();
      for (const p of blocks(period, "Point")) {
        const pos = Number(first(p, "position"));
        const amount = Number(first(p, "price.amount"));
        if (!Number.isInteger(pos) || pos < 1 || !Number.isFinite(amount)) throw new UpstreamFetchError("ENTSO-E answered a Point without a position or price", "malformed");
        given.set(pos, amount);
      }
      points.push(...expandPeriod({ startMs, endMs, stepMs, curveType, points: given }));
    }
  }
  const sorted = sortedUnique(points);
  if (sorted.length === 0) throw new UpstreamFetchError("ENTSO-E answered an empty series", "empty");
  const resolution = resolutionOf(sorted);
  if (!resolution) throw new UpstreamFetchError("ENTSO-E answered slots that are neither 15 minutes nor an hour", "malformed");
  return { source: ENTSOE_SOURCE, resolution, points: sorted };
}

/** `yyyyMMddHHmm` in UTC, ENTSO-E's period parameter format. */
function periodParam(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 12);
}

/** Yesterday 00:00 UTC to the day after tomorrow: covers today and tomorrow in Helsinki time. */
export async function fetchEntsoe({ baseUrl, timeoutMs, token, now = Date.now() }: { baseUrl: string; timeoutMs: number; token: string; now?: number }): Promise<SpotSeries> {
  const day = 86_400_000;
  const from = Math.floor(now / day) * day - day;
  const params = new URLSearchParams({
    documentType: "A44",
    in_Domain: FI_BIDDING_ZONE_EIC,
    out_Domain: FI_BIDDING_ZONE_EIC,
    periodStart: periodParam(from),
    periodEnd: periodParam(from + 3 * day),
    securityToken: token,
  });
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/+$/, "")}/api?${params}`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw new UpstreamFetchError(timedOut ? `ENTSO-E did not answer within ${timeoutMs} ms` : "ENTSO-E is unreachable", timedOut ? "timeout" : "unreachable");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamFetchError(`ENTSO-E answered HTTP ${res.status}`, "status");
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new UpstreamFetchError(`ENTSO-E did not finish its answer within ${timeoutMs} ms`, "timeout");
  }
  return parseEntsoeA44(text);
}
