import type { SpotSeries } from "../series";
import { UpstreamFetchError } from "./upstream-error";
import { fetchEntsoe } from "./entsoe";
import { fetchPorssisahko } from "./porssisahko";

/** The live sources SPOT_PRICE_SOURCE may name. */
export type SpotPriceSourceName = "porssisahko" | "entsoe";

export interface SourceConfig {
  name: SpotPriceSourceName;
  baseUrl: string;
  timeoutMs: number;
  /** ENTSO-E's security token (SPOT_PRICE_ENTSOE_TOKEN); unused by porssisahko. */
  token?: string;
}

/** Each source's public base URL, used when SPOT_PRICE_BASE_URL is unset. */
export const DEFAULT_BASE_URLS: Record<SpotPriceSourceName, string> = {
  porssisahko: "https://api.porssisahko.net",
  entsoe: "https://web-api.tp.entsoe.eu",
};

/** The cache key of a configured source: two base URLs never share cached prices. */
export function sourceKey(config: SourceConfig): string {
  return `${config.name}:${config.baseUrl}`;
}

export function fetchFromSource(config: SourceConfig): Promise<SpotSeries> {
  switch (config.name) {
    case "porssisahko":
      return fetchPorssisahko(config);
    case "entsoe":
      if (!config.token) return Promise.reject(new UpstreamFetchError("SPOT_PRICE_ENTSOE_TOKEN is not set", "unreachable"));
      return fetchEntsoe({ ...config, token: config.token });
  }
}
