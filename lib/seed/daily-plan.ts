import { helsinkiTime, weekdayOfDayNumber } from "./calendar";
import { CITIES, citiesWithin, type CityKey, type Coord, localRegion } from "./finland";
import type { UsageProfile } from "./fleet-plan";
import type { Rng } from "./prng";
import { type Location, sameLocation } from "./trip";

/**
 * What a vehicle intends to do on one calendar day: a list of drives, each leaving at a wall-clock
 * time or after a stay at the previous stop. The simulator turns intents into telemetry and
 * shifts a departure when the previous drive ran late.
 */
type TripIntent = { to: Location; at: number } | { to: Location; afterMin: number };

interface PlanInput {
  profile: UsageProfile;
  home: Location;
  work: Location;
  /** Helsinki calendar day (days since 1970-01-01). */
  day: number;
  /** Where the vehicle is when the day starts. */
  here: Location;
  rng: Rng;
}

/** About ±130 m: vehicles visiting the same district park in different streets. */
const JITTER_LAT = 0.0012;
const JITTER_LON = 0.0024;

function jitter(rng: Rng, c: Coord): Coord {
  return [c[0] + rng.float(-JITTER_LAT, JITTER_LAT), c[1] + rng.float(-JITTER_LON, JITTER_LON)];
}

export function locationIn(rng: Rng, city: CityKey, district: number): Location {
  const d = CITIES[city].districts[district];
  if (!d) throw new Error(`no district ${district} in ${city}`);
  return { city, district, coord: jitter(rng, d.point) };
}

/** A random district of the region other than the one the vehicle stands in (none in a one-district town). */
function somewhereNear(rng: Rng, region: readonly CityKey[], avoid: Location): Location | undefined {
  const options = region.flatMap((city) => CITIES[city].districts.map((_, district) => ({ city, district })));
  const others = options.filter((o) => !(o.city === avoid.city && o.district === avoid.district));
  if (others.length === 0) return undefined;
  const { city, district } = rng.pick(others);
  return locationIn(rng, city, district);
}

export function somewhereFar(rng: Rng, from: CityKey, minKm: number, maxKm: number): Location | undefined {
  const candidates = citiesWithin(from, minKm, maxKm);
  if (candidates.length === 0) return undefined;
  const city = rng.pick(candidates);
  return locationIn(rng, city, rng.int(0, CITIES[city].districts.length - 1));
}

const hours = (h: number) => h * 60;

/** Normal draw clamped to a range, in whole minutes after midnight. */
function clockTime(rng: Rng, meanH: number, sdH: number, minH: number, maxH: number): number {
  return Math.round(hours(Math.min(maxH, Math.max(minH, rng.normal(meanH, sdH)))));
}

export function planDay(input: PlanInput): TripIntent[] {
  const { rng, day, here, home } = input;
  const at = (minutes: number) => helsinkiTime(day, minutes);
  const weekday = weekdayOfDayNumber(day);
  const isWeekend = weekday === 0 || weekday === 6;

  // Away overnight (intercity stay): a morning meeting, then home.
  if (!sameLocation(here, home)) {
    const region = localRegion(here.city);
    const trips: TripIntent[] = [];
    const meeting = input.profile === "sales" && !isWeekend && rng.chance(0.6) ? somewhereNear(rng, region, here) : undefined;
    if (meeting) {
      trips.push({ to: meeting, at: at(clockTime(rng, 8.75, 0.4, 8, 10)) });
      trips.push({ to: home, afterMin: rng.int(60, 150) });
    } else {
      trips.push({ to: home, at: at(clockTime(rng, 12, 2, 7.5, 16)) });
    }
    return trips;
  }

  switch (input.profile) {
    case "commuter":
      return isWeekend ? leisureDay(input, weekday) : officeDay(input, 0);
    case "sales":
      if (isWeekend) return leisureDay(input, weekday);
      return rng.chance(0.3) ? salesTripDay(input) : officeDay(input, rng.int(1, 2));
    case "van_service":
    case "pickup":
      if (weekday === 0 || (weekday === 6 && !rng.chance(0.15))) return [];
      if (weekday !== 6 && rng.chance(0.08)) return outOfTownJob(input);
      return jobRound(input, {
        region: localRegion(input.home.city),
        startH: 7.3,
        stops: weekday === 6 ? rng.int(1, 2) : rng.int(3, 6),
        dwellMin: input.profile === "pickup" ? [60, 180] : [25, 90],
      });
    case "van_delivery": {
      if (weekday === 0 || (weekday === 6 && !rng.chance(0.5))) return [];
      // Deliveries stay in the home town: consecutive drops are a few kilometres apart.
      const region = [input.home.city];
      const morning = jobRound(input, { region, startH: 5.25, stops: rng.int(6, 9), dwellMin: [8, 20] });
      if (weekday === 6 || !rng.chance(0.4)) return morning;
      const afternoon = jobRound(input, { region, startH: 14, stops: rng.int(3, 4), dwellMin: [8, 20] });
      return [...morning, ...afternoon];
    }
  }
}

/** Home → work → home, with the odd errand; `visits` customer calls during the day (sales). */
function officeDay(input: PlanInput, visits: number): TripIntent[] {
  const { rng, day, home, work } = input;
  const at = (minutes: number) => helsinkiTime(day, minutes);
  const region = localRegion(home.city);
  const trips: TripIntent[] = [];

  if (rng.chance(0.07)) {
    // Remote-work day: at most a midday errand.
    const errand = rng.chance(0.5) ? somewhereNear(rng, region, home) : undefined;
    if (errand) trips.push({ to: errand, at: at(clockTime(rng, 12.5, 1.5, 10, 16)) }, { to: home, afterMin: rng.int(30, 90) });
    return trips;
  }

  trips.push({ to: work, at: at(clockTime(rng, 7.75, 0.45, 6.25, 9.5)) });
  let last = work;
  for (let i = 0; i < visits; i++) {
    const customer = somewhereNear(rng, region, last);
    if (!customer) break;
    trips.push({ to: customer, afterMin: rng.int(60, 150) });
    last = customer;
  }
  const lunch = visits === 0 && rng.chance(0.2) ? somewhereNear(rng, region, work) : undefined;
  if (lunch) trips.push({ to: lunch, at: at(clockTime(rng, 11.75, 0.3, 11, 12.75)) }, { to: work, afterMin: rng.int(30, 60) });
  else if (last !== work) trips.push({ to: work, afterMin: rng.int(45, 120) });

  const leaveWork = at(clockTime(rng, 16.5, 0.55, 15, 18.5));
  const errand = rng.chance(0.25) ? somewhereNear(rng, region, work) : undefined;
  if (errand) trips.push({ to: errand, at: leaveWork }, { to: home, afterMin: rng.int(20, 75) });
  else trips.push({ to: home, at: leaveWork });
  const evening = rng.chance(0.2) ? somewhereNear(rng, region, home) : undefined;
  if (evening) trips.push({ to: evening, at: at(clockTime(rng, 19, 0.5, 18.25, 20.5)) }, { to: home, afterMin: rng.int(45, 120) });
  return trips;
}

/** Weekends: a few errands, and now and then a trip to another city (sometimes overnight). */
function leisureDay(input: PlanInput, weekday: number): TripIntent[] {
  const { rng, day, home } = input;
  const at = (minutes: number) => helsinkiTime(day, minutes);
  if (weekday === 6 && rng.chance(0.1)) {
    const far = somewhereFar(rng, home.city, 80, 320);
    if (far) {
      const trips: TripIntent[] = [{ to: far, at: at(clockTime(rng, 10, 0.75, 8.5, 12)) }];
      if (!rng.chance(0.5)) trips.push({ to: home, afterMin: rng.int(180, 360) });
      return trips;
    }
  }
  const trips: TripIntent[] = [];
  const outings = rng.chance(0.65) ? (rng.chance(0.35) ? 2 : 1) : 0;
  let start = clockTime(rng, 11, 1, 9.5, 13);
  for (let i = 0; i < outings; i++) {
    const outing = somewhereNear(rng, localRegion(home.city), home);
    if (outing) trips.push({ to: outing, at: at(start) }, { to: home, afterMin: rng.int(40, 180) });
    start += rng.int(hours(4), hours(6));
  }
  return trips;
}

/** A day trip (or two days) to a customer in another city. */
function salesTripDay(input: PlanInput): TripIntent[] {
  const { rng, day, home } = input;
  const far = somewhereFar(rng, home.city, 50, 220);
  if (!far) return officeDay(input, 2);
  const trips: TripIntent[] = [{ to: far, at: helsinkiTime(day, clockTime(rng, 7.25, 0.5, 6.25, 8.75)) }];
  const second = rng.chance(0.5) ? somewhereNear(rng, localRegion(far.city), far) : undefined;
  if (second) trips.push({ to: second, afterMin: rng.int(60, 150) });
  // One trip in five is an overnight stay: tomorrow's plan starts away from home.
  if (!rng.chance(0.2)) trips.push({ to: home, afterMin: rng.int(60, 180) });
  return trips;
}

/** Depot → several stops in the region → depot. */
function jobRound(input: PlanInput, opts: { region: readonly CityKey[]; startH: number; stops: number; dwellMin: readonly [number, number] }): TripIntent[] {
  const { rng, day, home } = input;
  const trips: TripIntent[] = [];
  let last = home;
  for (let i = 0; i < opts.stops; i++) {
    const stop = somewhereNear(rng, opts.region, last);
    if (!stop) break;
    trips.push(
      i === 0
        ? { to: stop, at: helsinkiTime(day, clockTime(rng, opts.startH, 0.2, opts.startH - 0.5, opts.startH + 0.75)) }
        : { to: stop, afterMin: rng.int(opts.dwellMin[0], opts.dwellMin[1]) },
    );
    last = stop;
  }
  if (trips.length > 0) trips.push({ to: home, afterMin: rng.int(opts.dwellMin[0], opts.dwellMin[1]) });
  return trips;
}

function outOfTownJob(input: PlanInput): TripIntent[] {
  const { rng, day, home } = input;
  const far = somewhereFar(rng, home.city, 50, 160);
  if (!far) return jobRound(input, { region: localRegion(home.city), startH: 7.3, stops: 3, dwellMin: [30, 90] });
  return [
    { to: far, at: helsinkiTime(day, clockTime(rng, 7.25, 0.25, 6.75, 8)) },
    { to: home, afterMin: rng.int(120, 240) },
  ];
}
