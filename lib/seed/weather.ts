import { dayOfYear, DAY_MS, HOUR_MS } from "./calendar";
import type { Coord } from "./finland";

/**
 * A smooth, deterministic stand-in for Finnish air temperature (°C), so that the same place and
 * instant always give the same value whichever vehicle reports it. Fitted by eye to the 1991–2020
 * normals: Helsinki ≈ −4.5 °C in January and +17.5 °C in July, Oulu ≈ −10 / +16, Rovaniemi ≈ −12 / +15.
 */

/** Reference latitude and longitude (Helsinki) of the fit. */
const REF_LAT = 60.2;
const REF_LON = 24.9;
const ANNUAL_MEAN_C = 6.3;
const MEAN_DROP_PER_DEG_LAT = 0.7;
const SEASONAL_AMPLITUDE_C = 11.2;
/** Winters get harder northwards and inland (eastwards): larger seasonal swing. */
const AMPLITUDE_GAIN_PER_DEG_LAT = 0.35;
const AMPLITUDE_GAIN_PER_DEG_LON = 0.15;
/** Day of year of the warmest normal day (about 20 July). */
const WARMEST_DAY = 200;
const DAYS_PER_YEAR = 365.25;

/**
 * Passing weather systems: a few incommensurate sine waves over absolute time. Stronger in
 * winter, when a cold high can drop the temperature by 15 °C within days.
 */
const SYNOPTIC_WAVES = [
  { amplitude: 3.2, periodDays: 4.3, phase: 1.3 },
  { amplitude: 2.4, periodDays: 7.9, phase: 0.4 },
  { amplitude: 1.7, periodDays: 13.7, phase: 2.9 },
] as const;

export function temperatureC(at: Coord, utcMs: number): number {
  const [lat, lon] = at;
  const season = Math.cos((2 * Math.PI * (dayOfYear(utcMs) - WARMEST_DAY)) / DAYS_PER_YEAR); // +1 July … −1 January
  const mean = ANNUAL_MEAN_C - MEAN_DROP_PER_DEG_LAT * (lat - REF_LAT);
  const amplitude = SEASONAL_AMPLITUDE_C + AMPLITUDE_GAIN_PER_DEG_LAT * (lat - REF_LAT) + AMPLITUDE_GAIN_PER_DEG_LON * (lon - REF_LON);
  const seasonal = mean + amplitude * season;

  // Daily cycle peaking mid-afternoon local solar time; wider under the long summer days.
  const solarHour = (((utcMs / HOUR_MS + lon / 15) % 24) + 24) % 24;
  const diurnalAmplitude = 3 + 1.5 * season;
  const diurnal = diurnalAmplitude * Math.cos((2 * Math.PI * (solarHour - 15)) / 24);

  const days = utcMs / DAY_MS;
  const winterWeight = 1.25 - 0.35 * season;
  let synoptic = 0;
  for (const w of SYNOPTIC_WAVES) synoptic += w.amplitude * Math.sin((2 * Math.PI * days) / w.periodDays + w.phase + lon / 20);

  return seasonal + diurnal + winterWeight * synoptic;
}
