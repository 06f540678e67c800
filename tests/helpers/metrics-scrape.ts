import { expect } from "vitest";

/**
 * A scrape of `GET /api/metrics` read as Prometheus reads it (the text exposition format 0.0.4): every
 * line a `# HELP`, a `# TYPE` or one sample `name{label="value",…} number`; anything else fails the test.
 * Samples are keyed by name and labels in a stable order, so a test can compare two scrapes.
 */
export class Scrape {
  constructor(
    readonly samples: ReadonlyMap<string, number>,
    readonly types: ReadonlyMap<string, string>,
  ) {}

  /** The sample's value, or 0 when the series does not exist (yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples.get(sampleKey(name, labels)) ?? 0;
  }

  /** The sum over every series of `name` whose labels include `labels`. */
  sum(name: string, labels: Record<string, string> = {}): number {
    let total = 0;
    for (const [key, v] of this.samples) {
      const parsed = JSON.parse(key) as [string, Record<string, string>];
      if (parsed[0] === name && Object.entries(labels).every(([k, x]) => parsed[1][k] === x)) total += v;
    }
    return total;
  }
}

const sampleKey = (name: string, labels: Record<string, string>) => JSON.stringify([name, Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)))]);

/** A value as Prometheus's parser reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes `Nan`). */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[+-]?(?:nan|inf)) *$/i;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;

export function parseExposition(text: string): Scrape {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a line of the exposition format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      let consumed = 0;
      for (let l = LABEL.exec(m[2]); l; l = LABEL.exec(m[2])) {
        labels[l[1]!] = l[2]!;
        consumed = LABEL.lastIndex;
      }
      if (consumed !== m[2].length) throw new Error(`malformed labels: ${JSON.stringify(line)}`);
    }
    samples.set(sampleKey(m[1]!, labels), Number(m[3]));
  }
  return new Scrape(samples, types);
}

/** Scrapes `/api/metrics` through `fetch` with the token, expecting a 200 in the exposition format. */
export async function scrapeMetrics(fetchFrom: (path: string, init: RequestInit) => Promise<Response>, token: string): Promise<Scrape> {
  const res = await fetchFrom("/api/metrics", { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parseExposition(text);
}
