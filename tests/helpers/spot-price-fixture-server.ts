import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for porssisahko.net on an ephemeral local port, speaking its documented format
 * (`GET /v2/latest-prices.json` → `{"prices":[{"price","startDate","endDate"}]}`, newest first, c/kWh
 * incl. VAT) and its failure modes; `GET /api?…` answers an ENTSO-E A44 document for that adapter. It counts the requests it receives, so tests can tell a cache hit
 * (no request arrived) from a miss at the source itself, not from the app's word.
 */
export type FixtureMode = "ok" | "500" | "timeout" | "malformed" | "empty";

export interface FixturePrice {
  price: number;
  startDate: string;
  endDate: string;
}

export interface SpotPriceFixtureServer {
  url: string;
  /** Requests for /v2/latest-prices.json so far. */
  readonly requests: number;
  mode: FixtureMode;
  /** Milliseconds to wait before an "ok" answer (single-flight tests). */
  delayMs: number;
  prices: FixturePrice[];
  /** The A44 document served at `/api?…` (the ENTSO-E format), and the last query string it received. */
  entsoeXml: string;
  readonly lastEntsoeQuery: URLSearchParams | undefined;
  close(): Promise<void>;
}

/** `count` quarter-hour slots from `startMs` with distinct, known prices (newest first, as the source sends them). */
export function quarterHourPrices(startMs: number, count: number): FixturePrice[] {
  const out: FixturePrice[] = [];
  for (let i = 0; i < count; i++) {
    const s = startMs + i * 15 * 60_000;
    // Distinct values with up to 3 decimals, one negative (the market does go below zero).
    out.push({
      price: i === 5 ? -0.251 : Math.round((3 + ((i * 37) % 211) / 10) * 1000) / 1000,
      startDate: new Date(s).toISOString(),
      endDate: new Date(s + 15 * 60_000).toISOString(),
    });
  }
  return out.reverse();
}

export async function startSpotPriceFixtureServer(prices: FixturePrice[]): Promise<SpotPriceFixtureServer> {
  let requests = 0;
  const hanging = new Set<import("node:http").ServerResponse>();
  const state = { mode: "ok" as FixtureMode, delayMs: 0, prices, entsoeXml: "", lastEntsoeQuery: undefined as URLSearchParams | undefined };
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith("/api?")) {
      requests++;
      state.lastEntsoeQuery = new URLSearchParams(req.url.slice(5));
      if (state.mode === "500") {
        res.statusCode = 500;
        res.end();
        return;
      }
      res.setHeader("content-type", "text/xml");
      res.end(state.entsoeXml);
      return;
    }
    if (req.url !== "/v2/latest-prices.json") {
      res.statusCode = 404;
      res.end();
      return;
    }
    requests++;
    switch (state.mode) {
      case "500":
        res.statusCode = 500;
        res.end("Internal Server Error");
        return;
      case "timeout":
        // Never answers; the client's timeout must give up. Closed at shutdown.
        hanging.add(res);
        return;
      case "malformed":
        res.setHeader("content-type", "application/json");
        res.end('{"prices":[{"price":1.2,"startDate":');
        return;
      case "empty":
        res.setHeader("content-type", "application/json");
        res.end('{"prices":[]}');
        return;
      case "ok":
        setTimeout(() => {
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ prices: state.prices }));
        }, state.delayMs);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get requests() {
      return requests;
    },
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms) {
      state.delayMs = ms;
    },
    get prices() {
      return state.prices;
    },
    set prices(p) {
      state.prices = p;
    },
    get entsoeXml() {
      return state.entsoeXml;
    },
    set entsoeXml(x) {
      state.entsoeXml = x;
    },
    get lastEntsoeQuery() {
      return state.lastEntsoeQuery;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An A44 document in ENTSO-E's shape (namespace, mRID and other members trimmed to what the adapter reads). */
export function a44(periods: { start: string; end: string; resolution: string; curveType?: string; points: [number, number][] }[]): string {
  const ts = periods
    .map(
      (p) => `<TimeSeries><mRID>1</mRID>${p.curveType ? `<curveType>${p.curveType}</curveType>` : ""}<currency_Unit.name>EUR</currency_Unit.name>
  <Period><timeInterval><start>${p.start}</start><end>${p.end}</end></timeInterval><resolution>${p.resolution}</resolution>
  ${p.points.map(([pos, price]) => `<Point><position>${pos}</position><price.amount>${price}</price.amount></Point>`).join("\n  ")}
  </Period></TimeSeries>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>
<Publication_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3"><type>A44</type>${ts}</Publication_MarketDocument>`;
}
