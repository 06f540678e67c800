/**
 * Geography of the sandbox fleet: Finnish cities with a few districts each, and the main roads
 * between them as polylines of real waypoints (towns and junctions along the highway), so that a
 * simulated vehicle moves along the road network instead of straight across lakes and bays.
 * Coordinates are WGS84 [lat, lon], accurate to a few hundred metres: good enough for a map,
 * not for navigation.
 */

import { EARTH_RADIUS_KM } from "@/lib/vocabulary/distance";

export type Coord = readonly [lat: number, lon: number];

/** Finland's bounding box (mainland and Åland), used by tests and as a sanity bound. */
export const FINLAND_BOUNDS = { minLat: 59.7, maxLat: 70.1, minLon: 19.0, maxLon: 31.6 } as const;

const toRad = (deg: number) => (deg * Math.PI) / 180;

export function haversineKm(a: Coord, b: Coord): number {
  const dLat = toRad(b[0] - a[0]);
  const dLon = toRad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a[0])) * Math.cos(toRad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A polyline with its cumulative haversine length, for positions by distance travelled. */
export class Polyline {
  readonly points: readonly Coord[];
  /** cumulative[i] = km from the first point to points[i]. */
  private readonly cumulative: number[];

  constructor(points: readonly Coord[]) {
    if (points.length === 0) throw new Error("a polyline needs at least one point");
    this.points = points;
    this.cumulative = [0];
    for (let i = 1; i < points.length; i++) {
      this.cumulative.push((this.cumulative[i - 1] ?? 0) + haversineKm(points[i - 1] as Coord, points[i] as Coord));
    }
  }

  get lengthKm(): number {
    return this.cumulative[this.cumulative.length - 1] ?? 0;
  }

  /** The point `km` along the line (clamped to its ends), interpolated linearly within a segment. */
  at(km: number): Coord {
    const pts = this.points;
    if (km <= 0 || pts.length === 1) return pts[0] as Coord;
    if (km >= this.lengthKm) return pts[pts.length - 1] as Coord;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] ?? 0) <= km) lo = mid;
      else hi = mid;
    }
    const start = this.cumulative[lo] ?? 0;
    const span = (this.cumulative[hi] ?? start) - start;
    const f = span > 0 ? (km - start) / span : 0;
    const a = pts[lo] as Coord;
    const b = pts[hi] as Coord;
    return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
  }
}

// ---------------------------------------------------------------------------------------------
// Cities and districts

interface District {
  name: string;
  point: Coord;
  /** Road points from the city hub towards the district (hub and district excluded). */
  via: readonly Coord[];
}

interface City {
  name: string;
  /** The centre, where the city's highways meet. */
  hub: Coord;
  districts: readonly District[];
}

const centreOnly = (name: string, hub: Coord): City => ({ name, hub, districts: [{ name: "Keskusta", point: hub, via: [] }] });

export const CITIES = {
  helsinki: {
    name: "Helsinki",
    hub: [60.1699, 24.9384],
    districts: [
      { name: "Kamppi", point: [60.169, 24.931], via: [] },
      { name: "Pasila", point: [60.199, 24.933], via: [[60.178, 24.93]] },
      { name: "Kallio", point: [60.184, 24.95], via: [] },
      {
        name: "Herttoniemi",
        point: [60.195, 25.035],
        via: [
          [60.187, 24.978],
          [60.187, 25.005],
        ],
      },
      {
        name: "Itäkeskus",
        point: [60.21, 25.081],
        via: [
          [60.187, 24.978],
          [60.187, 25.005],
          [60.196, 25.035],
        ],
      },
      {
        name: "Pitäjänmäki",
        point: [60.223, 24.86],
        via: [
          [60.178, 24.93],
          [60.199, 24.91],
          [60.217, 24.885],
        ],
      },
      {
        name: "Malmi",
        point: [60.251, 25.011],
        via: [
          [60.187, 24.96],
          [60.208, 24.977],
          [60.226, 25.008],
        ],
      },
      {
        name: "Munkkiniemi",
        point: [60.198, 24.878],
        via: [
          [60.178, 24.93],
          [60.19, 24.913],
        ],
      },
      { name: "Lauttasaari", point: [60.159, 24.877], via: [[60.164, 24.914]] },
    ],
  },
  espoo: {
    name: "Espoo",
    hub: [60.2055, 24.6559],
    districts: [
      { name: "Espoon keskus", point: [60.205, 24.658], via: [] },
      {
        name: "Leppävaara",
        point: [60.2192, 24.813],
        via: [
          [60.214, 24.69],
          [60.22, 24.75],
        ],
      },
      {
        name: "Tapiola",
        point: [60.1756, 24.805],
        via: [
          [60.214, 24.69],
          [60.22, 24.75],
          [60.215, 24.8],
          [60.19, 24.805],
        ],
      },
      {
        name: "Keilaniemi",
        point: [60.176, 24.828],
        via: [
          [60.214, 24.69],
          [60.22, 24.75],
          [60.215, 24.8],
          [60.19, 24.805],
          [60.1756, 24.805],
        ],
      },
      {
        name: "Matinkylä",
        point: [60.16, 24.739],
        via: [
          [60.185, 24.67],
          [60.17, 24.71],
        ],
      },
    ],
  },
  vantaa: {
    name: "Vantaa",
    hub: [60.2934, 25.0378],
    districts: [
      { name: "Tikkurila", point: [60.292, 25.04], via: [] },
      { name: "Aviapolis", point: [60.304, 24.965], via: [[60.305, 25.0]] },
      {
        name: "Myyrmäki",
        point: [60.261, 24.854],
        via: [
          [60.305, 25.0],
          [60.306, 24.96],
          [60.301, 24.9],
          [60.29, 24.85],
        ],
      },
      { name: "Koivukylä", point: [60.32, 25.06], via: [] },
      { name: "Hakunila", point: [60.278, 25.105], via: [[60.285, 25.07]] },
    ],
  },
  tampere: {
    name: "Tampere",
    hub: [61.4978, 23.761],
    districts: [
      { name: "Keskusta", point: [61.4975, 23.76], via: [] },
      {
        name: "Hervanta",
        point: [61.45, 23.85],
        via: [
          [61.485, 23.79],
          [61.47, 23.815],
        ],
      },
      {
        name: "Lielahti",
        point: [61.515, 23.68],
        via: [
          [61.505, 23.73],
          [61.508, 23.7],
        ],
      },
      { name: "Kaleva", point: [61.501, 23.8], via: [] },
      { name: "Hatanpää", point: [61.485, 23.76], via: [] },
      {
        name: "Lakalaiva",
        point: [61.457, 23.776],
        via: [
          [61.485, 23.765],
          [61.47, 23.77],
        ],
      },
    ],
  },
  turku: {
    name: "Turku",
    hub: [60.4518, 22.2666],
    districts: [
      { name: "Keskusta", point: [60.4515, 22.267], via: [] },
      { name: "Kupittaa", point: [60.449, 22.295], via: [] },
      {
        name: "Varissuo",
        point: [60.447, 22.352],
        via: [
          [60.449, 22.295],
          [60.45, 22.325],
        ],
      },
      { name: "Runosmäki", point: [60.485, 22.235], via: [[60.47, 22.255]] },
      { name: "Skanssi", point: [60.433, 22.315], via: [[60.445, 22.29]] },
      { name: "Artukainen", point: [60.468, 22.195], via: [[60.46, 22.24]] },
    ],
  },
  oulu: {
    name: "Oulu",
    hub: [65.0121, 25.4651],
    districts: [
      { name: "Keskusta", point: [65.0125, 25.47], via: [] },
      {
        name: "Linnanmaa",
        point: [65.058, 25.468],
        via: [
          [65.024, 25.47],
          [65.04, 25.475],
        ],
      },
      { name: "Kaakkuri", point: [64.967, 25.53], via: [[64.995, 25.495]] },
      { name: "Rusko", point: [65.015, 25.55], via: [[65.01, 25.51]] },
    ],
  },
  jyvaskyla: {
    name: "Jyväskylä",
    hub: [62.2426, 25.7473],
    districts: [
      { name: "Keskusta", point: [62.242, 25.747], via: [] },
      { name: "Seppälä", point: [62.262, 25.772], via: [[62.25, 25.76]] },
      { name: "Palokka", point: [62.285, 25.715], via: [[62.26, 25.735]] },
      { name: "Kuokkala", point: [62.22, 25.738], via: [[62.233, 25.738]] },
      { name: "Keljo", point: [62.215, 25.69], via: [[62.235, 25.72]] },
    ],
  },
  lahti: {
    name: "Lahti",
    hub: [60.9827, 25.6612],
    districts: [
      { name: "Keskusta", point: [60.983, 25.66], via: [] },
      { name: "Kivimaa", point: [61.0, 25.69], via: [] },
      { name: "Renkomäki", point: [60.95, 25.635], via: [[60.97, 25.65]] },
      { name: "Laune", point: [60.965, 25.685], via: [] },
    ],
  },
  kuopio: {
    name: "Kuopio",
    hub: [62.8924, 27.677],
    districts: [
      { name: "Keskusta", point: [62.8925, 27.678], via: [] },
      { name: "Savilahti", point: [62.887, 27.645], via: [[62.888, 27.66]] },
      {
        name: "Neulamäki",
        point: [62.87, 27.618],
        via: [
          [62.888, 27.66],
          [62.88, 27.635],
        ],
      },
      {
        name: "Petonen",
        point: [62.855, 27.635],
        via: [
          [62.888, 27.66],
          [62.87, 27.645],
        ],
      },
    ],
  },
  pori: {
    name: "Pori",
    hub: [61.4851, 21.7974],
    districts: [
      { name: "Keskusta", point: [61.485, 21.797], via: [] },
      { name: "Isomäki", point: [61.48, 21.825], via: [] },
      { name: "Herralahti", point: [61.47, 21.75], via: [] },
      {
        name: "Mäntyluoto",
        point: [61.592, 21.484],
        via: [
          [61.51, 21.72],
          [61.56, 21.58],
        ],
      },
    ],
  },
  hameenlinna: {
    name: "Hämeenlinna",
    hub: [60.9959, 24.4643],
    districts: [
      { name: "Keskusta", point: [60.996, 24.464], via: [] },
      { name: "Kauriala", point: [61.005, 24.485], via: [] },
      { name: "Hätilä", point: [60.985, 24.485], via: [] },
      { name: "Moreeni", point: [60.96, 24.51], via: [[60.98, 24.49]] },
    ],
  },
  lappeenranta: {
    name: "Lappeenranta",
    hub: [61.0583, 28.1887],
    districts: [
      { name: "Keskusta", point: [61.058, 28.188], via: [] },
      { name: "Skinnarila", point: [61.064, 28.094], via: [[61.057, 28.14]] },
      { name: "Sammonlahti", point: [61.047, 28.115], via: [[61.055, 28.15]] },
      { name: "Kesämäki", point: [61.045, 28.21], via: [] },
    ],
  },
  joensuu: {
    name: "Joensuu",
    hub: [62.601, 29.7636],
    districts: [
      { name: "Keskusta", point: [62.601, 29.763], via: [] },
      { name: "Noljakka", point: [62.62, 29.7], via: [[62.61, 29.73]] },
      { name: "Niinivaara", point: [62.595, 29.79], via: [] },
      { name: "Rantakylä", point: [62.615, 29.82], via: [[62.608, 29.79]] },
    ],
  },
  vaasa: {
    name: "Vaasa",
    hub: [63.0951, 21.6165],
    districts: [
      { name: "Keskusta", point: [63.095, 21.616], via: [] },
      { name: "Palosaari", point: [63.108, 21.598], via: [] },
      { name: "Ristinummi", point: [63.077, 21.67], via: [[63.088, 21.64]] },
      {
        name: "Runsor",
        point: [63.05, 21.76],
        via: [
          [63.08, 21.67],
          [63.065, 21.72],
        ],
      },
    ],
  },
  seinajoki: {
    name: "Seinäjoki",
    hub: [62.7903, 22.8403],
    districts: [
      { name: "Keskusta", point: [62.79, 22.84], via: [] },
      { name: "Kivistö", point: [62.805, 22.88], via: [] },
      { name: "Joupiska", point: [62.775, 22.88], via: [] },
      { name: "Pajuluoma", point: [62.77, 22.8], via: [] },
    ],
  },
  kouvola: {
    name: "Kouvola",
    hub: [60.8681, 26.7042],
    districts: [
      { name: "Keskusta", point: [60.868, 26.704], via: [] },
      { name: "Kuusankoski", point: [60.907, 26.624], via: [[60.89, 26.66]] },
      { name: "Korjala", point: [60.856, 26.75], via: [] },
      { name: "Tykkimäki", point: [60.879, 26.77], via: [] },
    ],
  },
  rovaniemi: {
    name: "Rovaniemi",
    hub: [66.5039, 25.7294],
    districts: [
      { name: "Keskusta", point: [66.504, 25.729], via: [] },
      { name: "Lentoasema", point: [66.561, 25.83], via: [[66.53, 25.79]] },
      { name: "Korkalovaara", point: [66.496, 25.7], via: [] },
      { name: "Saarenkylä", point: [66.52, 25.79], via: [[66.51, 25.76]] },
    ],
  },
  porvoo: centreOnly("Porvoo", [60.3932, 25.665]),
  kotka: centreOnly("Kotka", [60.4664, 26.9458]),
  mikkeli: centreOnly("Mikkeli", [61.6886, 27.2723]),
  salo: centreOnly("Salo", [60.3833, 23.1333]),
  rauma: centreOnly("Rauma", [61.128, 21.511]),
  forssa: centreOnly("Forssa", [60.814, 23.621]),
  imatra: centreOnly("Imatra", [61.172, 28.76]),
  iisalmi: centreOnly("Iisalmi", [63.56, 27.19]),
} satisfies Record<string, City>;

export type CityKey = keyof typeof CITIES;
export const CITY_KEYS = Object.keys(CITIES) as CityKey[];

/** Cities close enough to commute and work across (the capital region is one labour market). */
export function localRegion(key: CityKey): CityKey[] {
  const capital: CityKey[] = ["helsinki", "espoo", "vantaa"];
  return capital.includes(key) ? capital : [key];
}

// ---------------------------------------------------------------------------------------------
// Roads

/** Highway junctions and small towns that are waypoints only (no vehicle lives there). */
const JUNCTIONS = {
  leppavaara: [60.2192, 24.813],
  vantaankoski: [60.29, 24.85],
  palojarvi: [60.276, 24.39],
  nurmijarvi: [60.464, 24.807],
  toijala: [61.167, 23.868],
  loimaa: [60.8497, 23.056],
  huittinen: [61.177, 22.699],
  orivesi: [61.677, 24.358],
  jamsa: [61.864, 25.19],
  heinola: [61.205, 26.0381],
  lusi: [61.31, 26.07],
  parkano: [62.01, 23.025],
  jalasjarvi: [62.494, 22.758],
  suonenjoki: [62.625, 27.126],
  varkaus: [62.3155, 27.873],
  viitasaari: [63.075, 25.86],
  karsamaki: [63.978, 25.758],
  kempele: [64.913, 25.508],
  tervola: [66.085, 24.81],
  parikkala: [61.55, 29.5],
  kitee: [62.1, 30.14],
} satisfies Record<string, Coord>;

type PlaceKey = CityKey | keyof typeof JUNCTIONS;

function placeCoord(key: PlaceKey): Coord {
  return key in CITIES ? CITIES[key as CityKey].hub : JUNCTIONS[key as keyof typeof JUNCTIONS];
}

interface RouteDef {
  name: string;
  /** Named places (graph nodes) and plain road points between them, in driving order. */
  stops: readonly (PlaceKey | Coord)[];
}

/** Main roads, each traced through the towns and junctions it passes. */
export const ROUTES: readonly RouteDef[] = [
  { name: "Turunväylä (VT1/E18) Helsinki–Espoo", stops: ["helsinki", [60.178, 24.93], [60.19, 24.913], [60.201, 24.877], "leppavaara", [60.22, 24.75], [60.214, 24.69], "espoo"] },
  {
    name: "Hämeenlinnanväylä (VT3/E12) Helsinki–Vantaankoski",
    stops: ["helsinki", [60.178, 24.93], [60.199, 24.91], [60.22, 24.899], [60.245, 24.878], [60.27, 24.86], "vantaankoski"],
  },
  { name: "Lahdenväylä (VT4/E75) Helsinki–Tikkurila", stops: ["helsinki", [60.187, 24.96], [60.208, 24.977], [60.226, 25.008], [60.25, 25.03], "vantaa"] },
  { name: "Kehä III Espoo–Vantaa", stops: ["espoo", [60.218, 24.71], [60.24, 24.77], [60.265, 24.825], "vantaankoski", [60.301, 24.9], [60.306, 24.96], [60.305, 25.0], "vantaa"] },
  {
    name: "VT3/E12 Vantaa–Hämeenlinna–Tampere",
    stops: [
      "vantaankoski",
      [60.339, 24.844],
      [60.4, 24.825],
      "nurmijarvi",
      [60.54, 24.8],
      [60.61, 24.78],
      [60.69, 24.74],
      [60.73, 24.72],
      [60.8, 24.68],
      [60.915, 24.64],
      [60.96, 24.54],
      "hameenlinna",
      [61.045, 24.365],
      [61.085, 24.16],
      [61.13, 24.01],
      "toijala",
      [61.24, 23.8],
      [61.314, 23.753],
      [61.41, 23.75],
      "tampere",
    ],
  },
  {
    name: "VT1/E18 Espoo–Salo–Turku",
    stops: [
      "espoo",
      [60.245, 24.56],
      [60.27, 24.456],
      "palojarvi",
      [60.27, 24.28],
      [60.268, 24.1],
      [60.3, 23.9],
      [60.335, 23.65],
      [60.38, 23.38],
      "salo",
      [60.43, 22.88],
      [60.457, 22.69],
      [60.46, 22.45],
      "turku",
    ],
  },
  {
    name: "VT2 Vihti–Forssa–Pori",
    stops: [
      "palojarvi",
      [60.35, 24.33],
      [60.536, 24.21],
      [60.65, 23.95],
      "forssa",
      [60.93, 23.35],
      [61.05, 23.05],
      "huittinen",
      [61.256, 22.355],
      [61.314, 22.142],
      [61.364, 22.004],
      "pori",
    ],
  },
  { name: "VT9/E63 Turku–Loimaa–Toijala", stops: ["turku", [60.503, 22.45], [60.607, 22.575], "loimaa", [60.93, 23.37], [61.08, 23.55], "toijala"] },
  {
    name: "VT9/E63 Tampere–Jämsä–Jyväskylä",
    stops: ["tampere", [61.505, 23.9], [61.525, 24.09], "orivesi", [61.76, 24.7], "jamsa", [61.95, 25.37], [62.01, 25.554], [62.129, 25.672], "jyvaskyla"],
  },
  {
    name: "VT9/E63 Jyväskylä–Suonenjoki–Kuopio",
    stops: ["jyvaskyla", [62.25, 25.89], [62.262, 26.204], [62.39, 26.44], [62.5, 26.8], "suonenjoki", [62.75, 27.43], [62.83, 27.63], "kuopio"],
  },
  {
    name: "VT4/E75 Vantaa–Lahti",
    stops: ["vantaa", [60.34, 25.08], [60.405, 25.13], [60.474, 25.12], [60.55, 25.23], [60.633, 25.318], [60.73, 25.45], [60.82, 25.54], [60.92, 25.63], "lahti"],
  },
  {
    name: "VT4/E75 Lahti–Heinola–Jyväskylä",
    stops: ["lahti", [61.116, 25.97], "heinola", "lusi", [61.581, 26.016], [61.742, 26.114], [61.9, 26.1], [62.097, 26.082], [62.2, 25.92], "jyvaskyla"],
  },
  {
    name: "VT4/E75 Jyväskylä–Oulu",
    stops: [
      "jyvaskyla",
      [62.35, 25.72],
      [62.603, 25.726],
      [62.8, 25.8],
      "viitasaari",
      [63.37, 25.574],
      [63.675, 25.99],
      "karsamaki",
      [64.3, 25.75],
      [64.6, 25.6],
      "kempele",
      "oulu",
    ],
  },
  {
    name: "VT4/E75 Oulu–Kemi–Rovaniemi",
    stops: ["oulu", [65.1, 25.4], [65.18, 25.35], [65.317, 25.372], [65.5, 25.2], [65.66, 25.06], [65.8, 24.55], "tervola", [66.37, 25.35], "rovaniemi"],
  },
  { name: "VT12 Lahti–Kouvola", stops: ["lahti", [60.948, 25.93], [60.93, 26.2], "kouvola"] },
  { name: "VT6 Kouvola–Lappeenranta–Imatra", stops: ["kouvola", [60.85, 27.0], [60.87, 27.15], [60.92, 27.56], [60.99, 27.87], "lappeenranta", [61.12, 28.5], "imatra"] },
  {
    name: "VT6 Imatra–Parikkala–Joensuu",
    stops: ["imatra", [61.28, 29.0], [61.43, 29.37], "parikkala", [61.73, 29.67], [61.9, 29.83], "kitee", [62.35, 30.0], [62.5, 29.9], "joensuu"],
  },
  {
    name: "VT7/E18 Helsinki–Porvoo–Kotka",
    stops: ["helsinki", [60.187, 24.978], [60.21, 25.081], [60.26, 25.23], [60.32, 25.4], "porvoo", [60.44, 25.9], [60.457, 26.225], [60.47, 26.55], "kotka"],
  },
  { name: "VT15 Kotka–Kouvola", stops: ["kotka", [60.55, 26.9], [60.7, 26.8], "kouvola"] },
  {
    name: "VT5/E63 Lusi–Mikkeli–Varkaus–Kuopio",
    stops: [
      "lusi",
      [61.38, 26.4],
      [61.419, 26.878],
      [61.55, 27.05],
      "mikkeli",
      [61.8, 27.55],
      [61.897, 27.856],
      [62.1, 27.9],
      "varkaus",
      [62.491, 27.787],
      [62.65, 27.72],
      [62.83, 27.63],
      "kuopio",
    ],
  },
  { name: "VT17 Kuopio–Outokumpu–Joensuu", stops: ["kuopio", [62.86, 27.69], [62.845, 27.85], [62.83, 28.15], [62.81, 28.49], [62.726, 29.017], [62.65, 29.4], "joensuu"] },
  { name: "VT5 Kuopio–Iisalmi", stops: ["kuopio", [62.96, 27.64], [63.077, 27.66], [63.37, 27.39], "iisalmi"] },
  {
    name: "VT3/VT19 Tampere–Parkano–Seinäjoki",
    stops: ["tampere", [61.51, 23.69], [61.556, 23.596], [61.639, 23.196], [61.82, 23.07], "parkano", [62.25, 22.9], "jalasjarvi", [62.65, 22.8], "seinajoki"],
  },
  { name: "VT18 Seinäjoki–Laihia–Vaasa", stops: ["seinajoki", [62.94, 22.52], [62.976, 22.011], [63.05, 21.8], "vaasa"] },
  { name: "VT8/E8 Turku–Rauma–Pori", stops: ["turku", [60.486, 22.169], [60.679, 21.989], [60.878, 21.693], "rauma", [61.2, 21.73], [61.38, 21.75], "pori"] },
];

interface Edge {
  to: PlaceKey;
  /** Points from this node to `to`, both ends included. */
  points: Coord[];
  km: number;
}

let graph: Map<PlaceKey, Edge[]> | undefined;

/** Splits every route at its named places into edges of an undirected road graph. */
function roadGraph(): Map<PlaceKey, Edge[]> {
  if (graph) return graph;
  const g = new Map<PlaceKey, Edge[]>();
  const addEdge = (from: PlaceKey, to: PlaceKey, points: Coord[]) => {
    const km = new Polyline(points).lengthKm;
    g.set(from, [...(g.get(from) ?? []), { to, points, km }]);
    g.set(to, [...(g.get(to) ?? []), { to: from, points: [...points].reverse(), km }]);
  };
  for (const route of ROUTES) {
    let from: PlaceKey | undefined;
    let points: Coord[] = [];
    for (const stop of route.stops) {
      if (typeof stop === "string") {
        const here = placeCoord(stop);
        if (from !== undefined) addEdge(from, stop, [...points, here]);
        from = stop;
        points = [here];
      } else {
        points.push(stop);
      }
    }
  }
  graph = g;
  return g;
}

const pathCache = new Map<string, { points: Coord[]; km: number }>();

/** Shortest road path between two city hubs (Dijkstra over the route graph), both hubs included. */
export function roadPath(from: CityKey, to: CityKey): { points: Coord[]; km: number } {
  const cacheKey = `${from}>${to}`;
  const cached = pathCache.get(cacheKey);
  if (cached) return cached;

  const g = roadGraph();
  const dist = new Map<PlaceKey, number>([[from, 0]]);
  const prev = new Map<PlaceKey, { node: PlaceKey; edge: Edge }>();
  const done = new Set<PlaceKey>();
  for (;;) {
    let node: PlaceKey | undefined;
    let best = Infinity;
    for (const [key, d] of dist) {
      if (!done.has(key) && d < best) {
        best = d;
        node = key;
      }
    }
    if (node === undefined) throw new Error(`no road from ${from} to ${to}`);
    if (node === to) break;
    done.add(node);
    for (const edge of g.get(node) ?? []) {
      const d = best + edge.km;
      if (d < (dist.get(edge.to) ?? Infinity)) {
        dist.set(edge.to, d);
        prev.set(edge.to, { node, edge });
      }
    }
  }

  const edges: Edge[] = [];
  for (let node: PlaceKey = to; node !== from;) {
    const step = prev.get(node);
    if (!step) break;
    edges.unshift(step.edge);
    node = step.node;
  }
  const points: Coord[] = [CITIES[from].hub];
  for (const edge of edges) points.push(...edge.points.slice(1));
  const result = { points, km: dist.get(to) ?? 0 };
  pathCache.set(cacheKey, result);
  return result;
}

/** Cities whose road distance from `from` lies in [minKm, maxKm]. */
export function citiesWithin(from: CityKey, minKm: number, maxKm: number): CityKey[] {
  return CITY_KEYS.filter((key) => {
    if (key === from) return false;
    const km = roadPath(from, key).km;
    return km >= minKm && km <= maxKm;
  });
}
