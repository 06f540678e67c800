import { CITIES, type CityKey, type Coord, Polyline, roadPath } from "./finland";

/** A place a vehicle can park: a district of a city, nudged a little so that vehicles do not stack. */
export interface Location {
  city: CityKey;
  district: number;
  coord: Coord;
}

/**
 * Road distance per km of polyline: the city polylines go district → centre → district through a
 * handful of points and miss the street grid's turns; the highway traces follow the road closely.
 */
const URBAN_WINDING = 1.25;
const HIGHWAY_WINDING = 1.06;

interface Leg {
  line: Polyline;
  winding: number;
  /** Road km from the trip start to the start of this leg. */
  startKm: number;
  roadKm: number;
  speedKmh: number;
  highway: boolean;
}

/** One drive from A to B: legs through town and along the highway, each at its own average speed. */
export class Trip {
  readonly legs: Leg[] = [];
  readonly totalKm: number;

  constructor(
    readonly to: Location,
    parts: { points: Coord[]; highway: boolean; speedKmh: number }[],
  ) {
    let km = 0;
    for (const part of parts) {
      const line = new Polyline(part.points);
      const winding = part.highway ? HIGHWAY_WINDING : URBAN_WINDING;
      const roadKm = line.lengthKm * winding;
      if (roadKm <= 0) continue;
      this.legs.push({ line, winding, startKm: km, roadKm, speedKmh: part.speedKmh, highway: part.highway });
      km += roadKm;
    }
    this.totalKm = km;
  }

  get highwayShare(): number {
    if (this.totalKm === 0) return 0;
    return this.legs.filter((l) => l.highway).reduce((s, l) => s + l.roadKm, 0) / this.totalKm;
  }

  get durationHours(): number {
    return this.hoursBetween(0, this.totalKm);
  }

  legAt(km: number): Leg | undefined {
    let found = this.legs[0];
    for (const leg of this.legs) if (leg.startKm <= km) found = leg;
    return found;
  }

  positionAt(km: number): Coord {
    const leg = this.legAt(km);
    if (!leg) return this.to.coord;
    return leg.line.at((km - leg.startKm) / leg.winding);
  }

  hoursBetween(fromKm: number, toKm: number): number {
    let hours = 0;
    for (const leg of this.legs) {
      const a = Math.max(fromKm, leg.startKm);
      const b = Math.min(toKm, leg.startKm + leg.roadKm);
      if (b > a) hours += (b - a) / leg.speedKmh;
    }
    return hours;
  }

  /** Where the vehicle is after driving `hours` from `fromKm` (capped at the destination). */
  distanceAfter(fromKm: number, hours: number): number {
    let km = fromKm;
    let left = hours;
    for (const leg of this.legs) {
      const end = leg.startKm + leg.roadKm;
      if (end <= km) continue;
      const legHours = (end - km) / leg.speedKmh;
      if (legHours >= left) return km + left * leg.speedKmh;
      left -= legHours;
      km = end;
    }
    return this.totalKm;
  }
}

function districtOf(loc: Location) {
  const d = CITIES[loc.city].districts[loc.district];
  if (!d) throw new Error(`no district ${loc.district} in ${loc.city}`);
  return d;
}

/** Road points from a location out to its city's centre (location first, centre last). */
function wayOut(loc: Location): Coord[] {
  return [loc.coord, ...[...districtOf(loc).via].reverse(), CITIES[loc.city].hub];
}

/** Road points from a city's centre in to a location. */
function wayIn(loc: Location): Coord[] {
  return [CITIES[loc.city].hub, ...districtOf(loc).via, loc.coord];
}

/** The road from one location to another: through town to the centre, the highway, and into town. */
export function planRoute(from: Location, to: Location, speeds: { urbanKmh: number; highwayKmh: number }): Trip {
  const urban = (points: Coord[]) => ({ points, highway: false, speedKmh: speeds.urbanKmh });
  if (from.city === to.city) {
    const points = from.district === to.district ? [from.coord, to.coord] : [...wayOut(from), ...wayIn(to).slice(1)];
    return new Trip(to, [urban(points)]);
  }
  return new Trip(to, [urban(wayOut(from)), { points: roadPath(from.city, to.city).points, highway: true, speedKmh: speeds.highwayKmh }, urban(wayIn(to))]);
}

export function sameLocation(a: Location, b: Location): boolean {
  return a.city === b.city && a.district === b.district;
}
