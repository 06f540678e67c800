import { describe, expect, it } from "vitest";
import { helsinkiDayNumber, helsinkiHourOfDay, helsinkiOffsetHours, helsinkiTime, weekdayOfDayNumber } from "@/lib/seed/calendar";
import { CITIES, CITY_KEYS, FINLAND_BOUNDS, haversineKm, Polyline, ROUTES, roadPath } from "@/lib/seed/finland";
import { createRng, hashSeed } from "@/lib/seed/prng";
import { temperatureC } from "@/lib/seed/weather";

const inFinland = ([lat, lon]: readonly [number, number]) =>
  lat >= FINLAND_BOUNDS.minLat && lat <= FINLAND_BOUNDS.maxLat && lon >= FINLAND_BOUNDS.minLon && lon <= FINLAND_BOUNDS.maxLon;

describe("prng", () => {
  it("repeats the same stream for the same seed and differs for another", () => {
    const a = createRng(hashSeed("x", 1));
    const b = createRng(hashSeed("x", 1));
    const c = createRng(hashSeed("x", 2));
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
  });

  it("keeps draws in range and roughly centred", () => {
    const rng = createRng(42);
    const ints = Array.from({ length: 5000 }, () => rng.int(3, 7));
    expect(Math.min(...ints)).toBe(3);
    expect(Math.max(...ints)).toBe(7);
    const normals = Array.from({ length: 5000 }, () => rng.normal(10, 2));
    const mean = normals.reduce((s, x) => s + x, 0) / normals.length;
    expect(mean).toBeGreaterThan(9.8);
    expect(mean).toBeLessThan(10.2);
    expect(() => rng.pick([])).toThrow();
  });
});

describe("Helsinki time", () => {
  it("switches between UTC+2 and UTC+3 at the EU summer-time dates", () => {
    expect(helsinkiOffsetHours(Date.parse("2025-01-15T12:00:00Z"))).toBe(2);
    expect(helsinkiOffsetHours(Date.parse("2025-03-30T00:59:59Z"))).toBe(2);
    expect(helsinkiOffsetHours(Date.parse("2025-03-30T01:00:00Z"))).toBe(3);
    expect(helsinkiOffsetHours(Date.parse("2025-10-26T00:59:59Z"))).toBe(3);
    expect(helsinkiOffsetHours(Date.parse("2025-10-26T01:00:00Z"))).toBe(2);
  });

  it("maps wall-clock times and weekdays", () => {
    const day = helsinkiDayNumber(Date.parse("2025-02-10T12:00:00Z")); // a Monday
    expect(weekdayOfDayNumber(day)).toBe(1);
    expect(new Date(helsinkiTime(day, 8 * 60)).toISOString()).toBe("2025-02-10T06:00:00.000Z");
    const summerDay = helsinkiDayNumber(Date.parse("2025-07-01T12:00:00Z"));
    expect(new Date(helsinkiTime(summerDay, 8 * 60)).toISOString()).toBe("2025-07-01T05:00:00.000Z");
    expect(helsinkiHourOfDay(Date.parse("2025-07-01T05:30:00Z"))).toBeCloseTo(8.5);
  });
});

describe("geography", () => {
  it("measures great-circle distances", () => {
    expect(haversineKm([60.1699, 24.9384], [61.4978, 23.761])).toBeGreaterThan(155);
    expect(haversineKm([60.1699, 24.9384], [61.4978, 23.761])).toBeLessThan(165);
    expect(haversineKm([60, 25], [60, 25])).toBe(0);
  });

  it("interpolates a position along a polyline by distance", () => {
    const line = new Polyline([
      [60, 24],
      [60, 25],
      [61, 25],
    ]);
    expect(line.at(0)).toEqual([60, 24]);
    expect(line.at(line.lengthKm + 5)).toEqual([61, 25]);
    const firstLeg = haversineKm([60, 24], [60, 25]);
    const mid = line.at(firstLeg / 2);
    expect(mid[0]).toBeCloseTo(60, 6);
    expect(mid[1]).toBeCloseTo(24.5, 6);
    const onSecondLeg = line.at(firstLeg + 10);
    expect(onSecondLeg[1]).toBeCloseTo(25, 6);
    expect(haversineKm([60, 25], onSecondLeg)).toBeCloseTo(10, 3);
  });

  it("keeps every city, district and route point inside Finland", () => {
    for (const city of Object.values(CITIES)) {
      expect(inFinland(city.hub)).toBe(true);
      for (const d of city.districts) {
        expect(inFinland(d.point)).toBe(true);
        for (const p of d.via) expect(inFinland(p)).toBe(true);
      }
    }
    for (const route of ROUTES) for (const stop of route.stops) if (typeof stop !== "string") expect(inFinland(stop)).toBe(true);
  });

  it("routes between all cities along roads a little longer than the straight line", () => {
    for (const to of CITY_KEYS) {
      const { points, km } = roadPath("helsinki", to);
      expect(points[0]).toEqual(CITIES.helsinki.hub);
      expect(points[points.length - 1]).toEqual(CITIES[to].hub);
      const straight = haversineKm(CITIES.helsinki.hub, CITIES[to].hub);
      expect(km).toBeGreaterThanOrEqual(straight);
      expect(km).toBeLessThan(straight * 1.6 + 10);
    }
    // Helsinki–Tampere on E12 is ~175 km; Helsinki–Oulu on E75 ~610 km.
    expect(roadPath("helsinki", "tampere").km).toBeGreaterThan(160);
    expect(roadPath("helsinki", "tampere").km).toBeLessThan(185);
    expect(roadPath("helsinki", "oulu").km).toBeGreaterThan(560);
    expect(roadPath("helsinki", "oulu").km).toBeLessThan(640);
  });
});

describe("weather", () => {
  it("follows the Finnish seasons and gets colder northwards", () => {
    const helsinki = [60.17, 24.94] as const;
    const rovaniemi = [66.5, 25.73] as const;
    const mean = (at: readonly [number, number], month: number) => {
      let sum = 0;
      for (let d = 1; d <= 28; d++) for (const h of [0, 6, 12, 18]) sum += temperatureC(at, Date.UTC(2025, month, d, h));
      return sum / (28 * 4);
    };
    expect(mean(helsinki, 0)).toBeLessThan(0);
    expect(mean(helsinki, 6)).toBeGreaterThan(13);
    expect(mean(rovaniemi, 0)).toBeLessThan(mean(helsinki, 0) - 4);
    expect(temperatureC(helsinki, Date.UTC(2025, 6, 10, 13))).toBeGreaterThan(temperatureC(helsinki, Date.UTC(2025, 6, 10, 1)));
  });
});
