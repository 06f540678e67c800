/**
 * The offline basemap: Natural Earth 1:50m country polygons from `world-atlas` (public domain data,
 * ISC-licensed packaging), turned from TopoJSON into GeoJSON for `L.geoJSON`. No tile server, no
 * network request beyond the app's own JS chunk (STACK.md "Maps").
 *
 * Why 1:50m: at 1:110m Finland is one polygon of 38 vertices; at 1:50m it has 519 (the coast and
 * the Åland islands), enough at the zoom levels a fleet view uses, for 756 KB of JSON
 * (230 KB gzip). 1:10m (3,211 vertices for Finland) would be 3.7 MB (920 KB gzip) for detail seen
 * only at city zoom. The sizes are asserted in tests/unit/fleet-map/basemap.test.ts.
 *
 * Why the TopoJSON is shipped and converted in the browser, not a GeoJSON generated at build time:
 * TopoJSON shares borders between neighbours and quantises coordinates, so it is five times
 * smaller than the GeoJSON it expands to (756 KB against 3.7 MB for 1:50m), the conversion takes
 * milliseconds, and importing the file straight from node_modules needs no generated file, no `prebuild` step and nothing in
 * .gitignore: a fresh clone works with `npm run dev` and `npm run build` alike. The import is
 * dynamic (`loadBasemap`), so the bundler puts the data in its own chunk that is fetched after the
 * page has rendered, and the result is memoised at module level: converted once per page load.
 */
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from "geojson";
import type { GeometryCollection, Topology } from "topojson-specification";
import { feature } from "topojson-client";

/** ISO 3166-1 numeric code of Antarctica, the feature's id in world-atlas. */
const ANTARCTICA_ID = "010";

export type BasemapCollection = FeatureCollection<Polygon | MultiPolygon, { name: string }>;

/**
 * Makes a ring continuous in longitude. Natural Earth cuts Russia (Chukotka) and Fiji at ±180°, and
 * after TopoJSON quantisation some of their rings step from +179.9° straight to −179.9°. Leaflet
 * draws in plain longitude, so such a step becomes an edge across the whole map: the "smear".
 * Shifting the points after each step by ∓360° keeps the ring on one side, and a ring that then
 * reaches west of −180° is moved whole by +360°: crossing rings always continue east of 180°
 * (Chukotka at 180°–190° E, drawn next to the rest of Russia, where it belongs on a map centred on
 * Europe). Returns the same array when nothing crosses.
 */
export function unwrapRing(ring: Position[]): Position[] {
  let offset = 0;
  let crossed = false;
  const out: Position[] = [];
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]!;
    if (i > 0) {
      const step = p[0]! - ring[i - 1]![0]!;
      if (step > 180) {
        offset -= 360;
        crossed = true;
      } else if (step < -180) {
        offset += 360;
        crossed = true;
      }
    }
    out.push(offset === 0 ? p : [p[0]! + offset, ...p.slice(1)]);
  }
  if (!crossed) return ring;
  const west = Math.min(...out.map((p) => p[0]!));
  return west < -180 ? out.map((p) => [p[0]! + 360, ...p.slice(1)]) : out;
}

/** Largest longitude step between consecutive points of any ring (> 180 means a smear). */
export function maxLongitudeStep(collection: BasemapCollection): number {
  let max = 0;
  for (const f of collection.features) {
    for (const polygon of polygonsOf(f)) {
      for (const ring of polygon) {
        for (let i = 1; i < ring.length; i++) max = Math.max(max, Math.abs(ring[i]![0]! - ring[i - 1]![0]!));
      }
    }
  }
  return max;
}

function polygonsOf(f: Feature<Polygon | MultiPolygon>): Position[][][] {
  return f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
}

/**
 * world-atlas `countries` TopoJSON → GeoJSON ready for `L.geoJSON`:
 * - Antarctica is dropped: its ring runs along the antimeridian and the pole, Web Mercator cannot
 *   show anything south of 85.05° anyway, and a fleet map has no vehicles there.
 * - Every other ring crossing ±180° is unwrapped (`unwrapRing`).
 * - Features without geometry (world-atlas has a few null geometries) are skipped.
 */
export function prepareBasemap(topology: Topology): BasemapCollection {
  const countries = topology.objects.countries as GeometryCollection<{ name: string }> | undefined;
  if (!countries) throw new Error("world-atlas topology has no `countries` object");
  const collection = feature(topology, countries) as FeatureCollection<Polygon | MultiPolygon | null, { name: string }>;
  const features: BasemapCollection["features"] = [];
  for (const f of collection.features) {
    if (!f.geometry || String(f.id) === ANTARCTICA_ID) continue;
    const g = f.geometry;
    const geometry: Polygon | MultiPolygon =
      g.type === "Polygon"
        ? { type: "Polygon", coordinates: g.coordinates.map(unwrapRing) }
        : { type: "MultiPolygon", coordinates: g.coordinates.map((polygon) => polygon.map(unwrapRing)) };
    features.push({ type: "Feature", id: f.id, properties: { name: f.properties.name }, geometry });
  }
  return { type: "FeatureCollection", features };
}

let basemapPromise: Promise<BasemapCollection> | null = null;

/** The prepared basemap, fetched (as its own chunk) and converted once per page load. */
export function loadBasemap(): Promise<BasemapCollection> {
  basemapPromise ??= import("world-atlas/countries-50m.json")
    .then((mod) => prepareBasemap(((mod as { default?: unknown }).default ?? mod) as Topology))
    .catch((error: unknown) => {
      basemapPromise = null; // let a later mount retry (e.g. after a flaky chunk load)
      throw error;
    });
  return basemapPromise;
}

/** A named place of the basemap (data/basemap/finland-places.json: GeoNames, CC BY 4.0). */
interface BasemapPlace {
  name: string;
  lat: number;
  lon: number;
  population: number;
}

/** Towns of at least this many inhabitants are named at every zoom; the rest from PLACE_DETAIL_ZOOM in. */
export const MAJOR_PLACE_POPULATION = 100_000;
/** Zoom from which every town of the file is named (about a region on screen). */
export const PLACE_DETAIL_ZOOM = 8;

let placesPromise: Promise<BasemapPlace[]> | null = null;

/** The basemap's place names, fetched as their own chunk once per page load (6 KB). */
export function loadPlaces(): Promise<BasemapPlace[]> {
  placesPromise ??= import("@/data/basemap/finland-places.json")
    .then((mod) => ((mod as { default?: unknown }).default ?? mod) as BasemapPlace[])
    .catch((error: unknown) => {
      placesPromise = null;
      throw error;
    });
  return placesPromise;
}
