import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import type { Topology } from "topojson-specification";
import { describe, expect, it } from "vitest";
import { type BasemapCollection, loadBasemap, loadPlaces, MAJOR_PLACE_POPULATION, maxLongitudeStep, prepareBasemap, unwrapRing } from "@/components/fleet-map/basemap";

const require = createRequire(import.meta.url);
const atlasPath = (res: string) => require.resolve(`world-atlas/countries-${res}.json`);
const readTopology = (res: string) => JSON.parse(readFileSync(atlasPath(res), "utf8")) as Topology;

function verticesOf(collection: BasemapCollection, name: string): number[][] {
  const f = collection.features.find((x) => x.properties.name === name);
  if (!f) return [];
  const polygons = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
  return polygons.flat(2);
}

describe("unwrapRing", () => {
  it("keeps a ring that crosses ±180° on one side instead of jumping across the map", () => {
    const ring = [
      [179, 65],
      [179.9, 66],
      [-179.9, 66],
      [-178, 65],
      [-179.9, 64],
      [179.9, 64],
      [179, 65],
    ];
    const out = unwrapRing(ring);
    expect(out.map((p) => p[0])).toEqual([179, 179.9, 180.1, 182, 180.1, 179.9, 179].map((x) => expect.closeTo(x, 9)));
    expect(out.map((p) => p[1])).toEqual(ring.map((p) => p[1]));
  });
  it("moves a ring that starts west of the antimeridian to the east side as a whole", () => {
    const ring = [
      [-179, 65],
      [-179.9, 66],
      [179.9, 66],
      [179, 65],
      [-179, 65],
    ];
    expect(unwrapRing(ring).map((p) => p[0])).toEqual([181, 180.1, 179.9, 179, 181].map((x) => expect.closeTo(x, 9)));
  });
  it("returns a ring that does not cross unchanged (same array)", () => {
    const ring = [
      [20, 60],
      [30, 60],
      [30, 70],
      [20, 60],
    ];
    expect(unwrapRing(ring)).toBe(ring);
  });
});

describe("prepareBasemap (world-atlas countries-50m)", () => {
  const raw = readTopology("50m");
  const basemap = prepareBasemap(raw);

  it("the raw data does smear: Russia and Fiji have rings stepping across ±180°", () => {
    // Guards the premise: if world-atlas stops cutting at the antimeridian, this test says so.
    const names = new Set<string>();
    const { feature } = require("topojson-client") as typeof import("topojson-client");
    const fc = feature(raw, raw.objects.countries!) as unknown as BasemapCollection;
    for (const f of fc.features) {
      if (!f.geometry) continue;
      if (maxLongitudeStep({ type: "FeatureCollection", features: [f] }) > 180) names.add(f.properties.name);
    }
    expect([...names].sort()).toEqual(["Antarctica", "Fiji", "Russia"]);
  });

  it("has no edge longer than half the globe after preparation (no smear), and no Antarctica", () => {
    expect(maxLongitudeStep(basemap)).toBeLessThanOrEqual(180);
    expect(basemap.features.some((f) => f.properties.name === "Antarctica")).toBe(false);
    expect(basemap.features.length).toBeGreaterThan(200);
  });

  it("keeps Russia's Chukotka east of 180° (next to the rest of Russia), not at −180°", () => {
    const lons = verticesOf(basemap, "Russia").map((p) => p[0]!);
    expect(Math.max(...lons)).toBeGreaterThan(180);
    expect(Math.min(...lons)).toBeGreaterThan(0);
  });

  it("draws Finland with enough detail for a fleet in Finland", () => {
    const fi = verticesOf(basemap, "Finland");
    const lons = fi.map((p) => p[0]!);
    const lats = fi.map((p) => p[1]!);
    // Finland spans about 19.5–31.6° E and 59.8–70.1° N (Åland to Nuorgam).
    expect(Math.min(...lons)).toBeGreaterThan(19);
    expect(Math.max(...lons)).toBeLessThan(32);
    expect(Math.min(...lats)).toBeGreaterThan(59.5);
    expect(Math.max(...lats)).toBeLessThan(70.5);
    expect(Math.min(...lons)).toBeLessThan(21); // Åland is there
    // 1:110m draws Finland with a few dozen vertices; 1:50m with several hundred (the reason for 50m).
    const coarse = verticesOf(prepareBasemap(readTopology("110m")), "Finland");
    expect(coarse.length).toBeLessThan(150);
    expect(fi.length).toBeGreaterThan(400);
    expect(fi.length).toBeGreaterThan(4 * coarse.length);
  });

  it("ships an acceptable number of bytes (50m) where 10m would not be", () => {
    const bytes = (res: string) => {
      const buf = readFileSync(atlasPath(res));
      return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
    };
    const fifty = bytes("50m");
    const ten = bytes("10m");
    expect(fifty.raw).toBeLessThan(800_000);
    expect(fifty.gzip).toBeLessThan(250_000);
    expect(ten.gzip).toBeGreaterThan(3 * fifty.gzip);
  });

  it("loadBasemap imports the same data once and memoises it", async () => {
    const a = await loadBasemap();
    const b = await loadBasemap();
    expect(a).toBe(b);
    expect(a.features.length).toBe(basemap.features.length);
    expect(maxLongitudeStep(a)).toBeLessThanOrEqual(180);
  });
});

describe("place names (data/basemap/finland-places.json)", () => {
  it("name Finland's and Åland's towns of 10,000 or more, largest first, inside the country, without city districts", async () => {
    const places = await loadPlaces();
    expect(places.length).toBeGreaterThanOrEqual(90);
    for (const p of places) {
      expect(p.lat, p.name).toBeGreaterThan(59.5);
      expect(p.lat, p.name).toBeLessThan(70.1);
      expect(p.lon, p.name).toBeGreaterThan(19.0);
      expect(p.lon, p.name).toBeLessThan(31.6);
      expect(p.population, p.name).toBeGreaterThanOrEqual(10_000);
    }
    expect(places.map((p) => p.population)).toEqual([...places.map((p) => p.population)].sort((a, b) => b - a));
    expect(new Set(places.map((p) => p.name)).size).toBe(places.length);
    const names = places.map((p) => p.name);
    // The sandbox's home towns, Mariehamn (filed under Åland), and no Helsinki district (PPLX) such as Kallio.
    for (const town of ["Helsinki", "Espoo", "Tampere", "Turku", "Oulu", "Vaasa", "Rovaniemi", "Mariehamn"]) expect(names).toContain(town);
    expect(names).not.toContain("Kallio");
    // Named at every zoom: the largest towns only (the rest wait for a closer view).
    expect(places.filter((p) => p.population >= MAJOR_PLACE_POPULATION).length).toBeLessThan(15);
  });
});
