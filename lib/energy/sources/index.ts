import type { SpotSeries } from "../series";
import { fetchPorssisahko } from "./porssisahko";

/** The live sources SPOT_PRICE_SOURCE may name. */
export const SPOT_PRICE_SOURCES = ["porssisahko"] as const;
export type SpotPriceSourceName = (typeof SPOT_PRICE_SOURCES)[number];

export interface SourceConfig {
  name: SpotPriceSourceName;
  baseUrl: string;
  timeoutMs: number;
}

/** The cache key of a configured source: two base URLs never share cached prices. */
export function sourceKey(config: SourceConfig): string {
  return `${config.name}:${config.baseUrl}`;
}

export function fetchFromSource(config: SourceConfig): Promise<SpotSeries> {
  switch (config.name) {
    case "porssisahko":
      return fetchPorssisahko(config);
  }
}
