import { describe, expect, it } from "vitest";
import { eurPerMwhToCentsWithVat, expandPeriod, parseEntsoeA44 } from "@/lib/energy/sources/entsoe";
import { UpstreamFetchError } from "@/lib/energy/sources/upstream-error";
import { a44 } from "../../helpers/spot-price-fixture-server";

const Q = 15 * 60_000;

describe("ENTSO-E A44", () => {
  it("EUR/MWh without VAT → c/kWh with 25.5 % VAT", () => {
    expect(eurPerMwhToCentsWithVat(100)).toBeCloseTo(12.55, 10);
    expect(eurPerMwhToCentsWithVat(-4)).toBeCloseTo(-0.502, 10);
  });

  it("A03: an omitted position repeats the previous price, up to the period's end", () => {
    const xml = a44([
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
    const s = parseEntsoeA44(xml);
    expect(s).toMatchObject({ source: "transparency.entsoe.eu", resolution: "PT15M" });
    expect(s.points.map((p) => [new Date(p.startMs).toISOString(), p.endMs - p.startMs])).toEqual([
      ["2026-01-14T23:00:00.000Z", Q],
      ["2026-01-14T23:15:00.000Z", Q],
      ["2026-01-14T23:30:00.000Z", Q],
      ["2026-01-14T23:45:00.000Z", Q],
    ]);
    expect(s.points.map((p) => Math.round(p.priceWithVat * 1000) / 1000)).toEqual([5.02, 5.02, 10.04, 10.04]);
  });

  it("A01: a missing position is a gap, never invented", () => {
    const pts = expandPeriod({
      startMs: 0,
      endMs: 4 * Q,
      stepMs: Q,
      curveType: "A01",
      points: new Map([
        [1, 10],
        [2, 20],
        [4, 40],
      ]),
    });
    expect(pts.map((p) => p.startMs / Q)).toEqual([0, 1, 3]);
  });

  it("hourly periods are PT60M, and several periods join in order", () => {
    const xml = a44([
      {
        start: "2025-09-02T22:00Z",
        end: "2025-09-03T00:00Z",
        resolution: "PT60M",
        points: [
          [1, 50],
          [2, 60],
        ],
      },
      {
        start: "2025-09-01T22:00Z",
        end: "2025-09-02T00:00Z",
        resolution: "PT60M",
        points: [
          [1, 10],
          [2, 20],
        ],
      },
    ]);
    const s = parseEntsoeA44(xml);
    expect(s.resolution).toBe("PT60M");
    expect(s.points.map((p) => new Date(p.startMs).toISOString().slice(0, 13))).toEqual(["2025-09-01T22", "2025-09-01T23", "2025-09-02T22", "2025-09-02T23"]);
  });

  it.each([
    [
      "an acknowledgement (no data)",
      '<Acknowledgement_MarketDocument xmlns="x"><Reason><code>999</code><text>No matching data found</text></Reason></Acknowledgement_MarketDocument>',
      "empty",
    ],
    ["not XML at all", '{"prices":[]}', "malformed"],
    ["a Point without a price", a44([{ start: "2026-01-14T23:00Z", end: "2026-01-15T00:00Z", resolution: "PT15M", points: [[1, Number.NaN]] }]), "malformed"],
    ["an unknown resolution", a44([{ start: "2026-01-14T23:00Z", end: "2026-01-15T00:00Z", resolution: "P1D", points: [[1, 1]] }]), "malformed"],
    ["a document with no points", a44([{ start: "2026-01-14T23:00Z", end: "2026-01-15T00:00Z", resolution: "PT15M", points: [] }]), "empty"],
  ])("refuses %s", (_n, xml, reason) => {
    let caught: unknown;
    try {
      parseEntsoeA44(xml);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UpstreamFetchError);
    expect((caught as UpstreamFetchError).reason).toBe(reason);
  });
});
