import { z } from "zod";
import { resolutionOf, sortedUnique, type SpotSeries } from "../series";
import { UpstreamFetchError } from "./upstream-error";

/**
 * porssisahko.net's public API, `GET {base}/v2/latest-prices.json`: `{"prices": [{"price": number,
 * "startDate": ISO 8601 UTC, "endDate": ISO 8601 UTC}]}` for today and (after ~14:00 Helsinki time)
 * tomorrow, newest first. `price` is c/kWh including Finnish VAT (the site's documented convention);
 * since 1 October 2025 the slots are 15 minutes (the Nordic day-ahead market's MTU), and the adapter
 * keeps whatever length the source gives.
 */
const PORSSISAHKO_SOURCE = "porssisahko.net";

const bodySchema = z.object({
  prices: z.array(
    z.object({
      price: z.number().finite(),
      startDate: z.iso.datetime({ offset: true }),
      endDate: z.iso.datetime({ offset: true }),
    }),
  ),
});

/** Pure: the source's JSON body → the normalised series. Throws UpstreamFetchError when it is not usable. */
export function parsePorssisahko(body: unknown): SpotSeries {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) throw new UpstreamFetchError("porssisahko.net answered a body not in its documented format", "malformed");
  const points = sortedUnique(parsed.data.prices.map((p) => ({ startMs: Date.parse(p.startDate), endMs: Date.parse(p.endDate), priceWithVat: p.price })));
  if (points.length === 0) throw new UpstreamFetchError("porssisahko.net answered an empty series", "empty");
  const resolution = resolutionOf(points);
  if (!resolution) throw new UpstreamFetchError("porssisahko.net answered slots that are neither 15 minutes nor an hour", "malformed");
  return { source: PORSSISAHKO_SOURCE, resolution, points };
}

/** Fetches and parses the latest prices, giving up after `timeoutMs`. */
export async function fetchPorssisahko({ baseUrl, timeoutMs }: { baseUrl: string; timeoutMs: number }): Promise<SpotSeries> {
  const url = `${baseUrl.replace(/\/+$/, "")}/v2/latest-prices.json`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw new UpstreamFetchError(timedOut ? `porssisahko.net did not answer within ${timeoutMs} ms` : "porssisahko.net is unreachable", timedOut ? "timeout" : "unreachable");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamFetchError(`porssisahko.net answered HTTP ${res.status}`, "status");
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw new UpstreamFetchError(
      timedOut ? `porssisahko.net did not finish its answer within ${timeoutMs} ms` : "porssisahko.net answered malformed JSON",
      timedOut ? "timeout" : "malformed",
    );
  }
  return parsePorssisahko(body);
}
