import { EARTH_RADIUS_KM } from "@/lib/vocabulary/distance";

/**
 * Great-circle distance (km) between two WGS84 points on the mean-radius sphere: the reference of the
 * great-circle SQL (lib/telemetry/queries/great-circle-sql.ts), which only the tests compute in TypeScript.
 */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
