import { z } from "zod";
import type { DistanceMethod } from "@/lib/vocabulary/distance";
import { dateTime, deviceIdPath, optionalIntQueryParam } from "./common";

// contract_km and lease_months: 1..max, no default (0 is a 400: no lease lasts 0 months, no contract
// allows 0 km). Absent → undefined: the device's master data applies.
/** Endpoint 19's input: the path's device id and the two contract terms (SPEC 4 row 19). */
export const mileageForecastPathSchema = deviceIdPath();
export const mileageForecastQuerySchema = z.object({
  contract_km: optionalIntQueryParam({
    min: 1,
    max: 2_000_000,
    description: "Contract mileage limit (km, compared with the odometer at the lease end); wins over the device's master data `contract_km`.",
  }),
  lease_months: optionalIntQueryParam({
    min: 1,
    max: 240,
    description: "Total lease duration in months, counted from the device's `lease_start` (else its first odometer day); wins over the master data `lease_months`.",
  }),
});
export type MileageForecastInput = z.output<typeof mileageForecastPathSchema> & z.output<typeof mileageForecastQuerySchema>;

const source = () => z.enum(["query", "master_data"]);

/** SPEC 2.15, with the forecast's terms and evidence alongside (docs/methodology/mileage-forecast.md). */
export const mileageForecastSchema = z
  .object({
    device_id: z.string(),
    current_km: z.number().meta({
      description:
        "The plausible series at the latest plausible odometer reading (km): the reading itself, or after an odometer rollback the reading plus the km wound back (the series continued from the pre-rollback baseline; odometer_reading_km is what the odometer shows, distance_method says so). 0 by convention without any reading (forecast_basis population_prior, current_km_at null).",
    }),
    predicted_end_km: z.number().meta({ description: "Forecast odometer at the end of the lease's last day (km)." }),
    contract_km: z.number().int().nullable().meta({ description: "The contract's km limit used: the query's, else the master data's; null when neither is known." }),
    overage_km: z.number().nullable().meta({ description: "max(0, predicted_end_km − contract_km); null without a contract limit." }),
    risk_score: z
      .number()
      .min(0)
      .max(100)
      .meta({ description: "Probability (0–100) that the odometer at the lease end exceeds contract_km under the forecast's model; 0 without a contract limit (see risk_basis)." }),
    confidence_interval: z.object({ lower: z.number(), upper: z.number() }).meta({ description: "Central prediction interval of the end odometer at interval_level_pct (80 %)." }),
    forecast_method: z.string(),
    data_quality: z.enum(["high", "medium", "low"]),
    generated_at: dateTime(),
    interval_level_pct: z.number(),
    risk_basis: z.enum(["contract_km", "no_contract_limit"]),
    current_km_at: dateTime().nullable().meta({
      description:
        "Device time (RFC 3339, UTC) of the latest plausible odometer reading current_km is at; null when the device has no odometer reading (current_km is then 0 by convention).",
    }),
    odometer_reading_km: z.number().nullable().meta({
      description:
        "The latest plausible odometer reading as the odometer shows it (km); equal to current_km unless the odometer had a rollback (then lower by rolled_back_km); null without a reading.",
    }),
    rolled_back_km: z.number().meta({
      description: "Km the odometer was wound back in the history read (rollbacks or resets no later reading contradicted), added back in current_km; 0 without a rollback.",
    }),
    distance_method: z.enum(["odometer", "odometer_plausible_increases", "none"] as const satisfies readonly DistanceMethod[]).meta({
      description:
        "How the series was measured (lib/vocabulary/distance.ts): `odometer`: every reading plausible; `odometer_plausible_increases`: readings set aside (a rollback or reset, one-sample spikes, implausible jumps, contradicted drops; limitations names them) and the series is the sum of plausible increases; `none`: no odometer reading.",
    }),
    forecast_basis: z
      .enum(["history", "population_prior"])
      .meta({ description: "`history`: the device's own trend; `population_prior`: fewer than two days of readings, the Finnish average car's distance (data_quality low)." }),
    daily_rate_km: z.number().meta({ description: "Average km per day over the history the trend read." }),
    history_days: z.number().int().meta({ description: "Calendar days the usable history covers (up to 365 before the latest reading)." }),
    reading_days: z.number().int().meta({ description: "Days with at least one plausible odometer reading." }),
    horizon_days: z.number().int().meta({ description: "Days from current_km_at to the lease end." }),
    forecast_end: z.iso.date().meta({ description: "The day predicted_end_km is for: the lease's last day, else 365 days from today (forecast_end_basis)." }),
    forecast_end_basis: z.enum(["lease_end", "default_horizon"]),
    contract: z.object({
      contract_km_source: source().nullable(),
      lease_months: z.number().int().nullable(),
      lease_months_source: source().nullable(),
      lease_start: z.iso.date(),
      lease_start_source: z.enum(["master_data", "first_odometer_day", "registered_in_fdp"]),
      lease_end: z.iso.date().nullable().meta({ description: "The lease's last day (lease_start + lease_months − 1 day); null without a lease duration." }),
    }),
    limitations: z.array(z.string()),
  })
  .meta({ id: "MileageForecast", description: "Mileage forecast to the lease end (SPEC 2.15; docs/methodology/mileage-forecast.md)." });
export type MileageForecastBody = z.input<typeof mileageForecastSchema>;
