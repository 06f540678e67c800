import { z } from "zod";
import { DISTANCE_METHOD_DESCRIPTION } from "@/lib/vocabulary/distance";
import { REPORT_POWERTRAINS } from "@/lib/reports/emissions";
import { reportPeriodQueryFields } from "./reports-emissions";

export const csrdQuerySchema = z.object({
  ...reportPeriodQueryFields,
  format: z
    .enum(["pdf", "json"])
    .default("pdf")
    .meta({ description: "`pdf` (default: `application/pdf`, a table per section and a chart) or `json` (the same report, SPEC 2.11)." }),
});

const figure = (unit: "tCO2e" | "MWh") =>
  z.object({
    value: z.number().nullable().meta({ description: `${unit}; null when it cannot be computed (see notes).` }),
    unit: z.literal(unit),
    datapoint: z.string().meta({ description: "The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`)." }),
    label: z.string(),
  });

const componentsSchema = z.object({
  ev_share: z.number().nullable(),
  co2_intensity: z.number().nullable(),
  energy_efficiency: z.number().nullable(),
});

export const csrdReportSchema = z
  .object({
    period: z.object({ start_date: z.string(), end_date: z.string(), days: z.number().int() }),
    fleet_summary: z.object({
      total_vehicles: z.number().int(),
      by_powertrain: z.object(Object.fromEntries(REPORT_POWERTRAINS.map((p) => [p, z.number().int()])) as Record<(typeof REPORT_POWERTRAINS)[number], z.ZodNumber>),
      ev_count: z.number().int().meta({ description: "BEV and PHEV." }),
      ice_count: z.number().int().meta({ description: "ICE and HEV." }),
      distance_km: z.number(),
      leased_vehicles_in_period: z.number().int(),
      energy_consumption: z
        .object({
          total: figure("MWh"),
          fossil: figure("MWh"),
          nuclear: figure("MWh"),
          renewable: figure("MWh"),
          fuel_mwh: z.number(),
          electricity_mwh: z.number(),
          electricity_mix: z.object({ renewable_share: z.number(), nuclear_share: z.number(), fossil_share: z.number(), year: z.number().int(), basis: z.string() }),
          factors_version: z.string().meta({ description: "Version of the energy factors (fuel CO2 per kWh, Finnish generation mix)." }),
        })
        .meta({ description: "ESRS E1-5: energy consumption by source, MWh." }),
    }),
    emissions: z
      .object({
        unit: z.literal("tCO2e"),
        scope_1: figure("tCO2e"),
        scope_2_location_based: figure("tCO2e"),
        scope_2_market_based: figure("tCO2e").extend({ contract_factor_g_per_kwh: z.number().nullable() }),
        scope_3: figure("tCO2e"),
        scope_3_categories: z.object({
          cat_3_fuel_and_energy_related: figure("tCO2e"),
          cat_13_downstream_leased_assets: figure("tCO2e").extend({ vehicles: z.number().int(), included_in_total: z.literal(false) }),
        }),
        total_location_based: figure("tCO2e").meta({ description: "Equals the emissions report's total_co2_kg_estimate ÷ 1000 for the same dates." }),
        total_market_based: figure("tCO2e"),
        emissions_report: z.object({ total_co2_kg_estimate: z.number(), method_version: z.string(), factors_version: z.string() }),
      })
      .meta({ description: "ESRS E1-6: gross GHG emissions by scope, tCO2e (gram precision)." }),
    green_fleet_score: z.object({
      green_fleet_score: z.number(),
      score_version: z.string(),
      confidence: z.enum(["high", "medium", "low"]),
      components: componentsSchema,
      weights: z.object({ ev_share: z.number(), co2_intensity: z.number(), energy_efficiency: z.number() }),
      period_days: z.number().int(),
      limitations: z.array(z.string()),
    }),
    ev_metrics: z.object({
      bev_count: z.number().int(),
      phev_count: z.number().int(),
      ev_count: z.number().int(),
      ev_share_pct: z.number().nullable().meta({ description: "EVs among vehicles of known powertrain, %." }),
      ev_distance_km: z.number(),
      ev_distance_share_pct: z.number().nullable(),
      electricity_mwh: z.number(),
      trend: z
        .array(z.object({ month: z.string(), active_vehicles: z.number().int(), ev_active_vehicles: z.number().int(), ev_share_pct: z.number().nullable() }))
        .meta({ description: "Per calendar month (UTC) of the period: vehicles that reported telemetry, plug-ins among them, and their share of the known powertrains." }),
    }),
    data_quality: z.object({
      distance_method: z
        .object({ odometer: z.number().int(), odometer_plausible_increases: z.number().int(), gps_great_circle: z.number().int(), none: z.number().int() })
        .meta({ description: `Vehicles per distance method of the emissions report: ${DISTANCE_METHOD_DESCRIPTION}.` }),
      odometer_rollback_vehicles: z
        .array(z.string())
        .meta({ description: "Vehicles whose odometer had a rollback or reset in the period (their distance is the sum of plausible increases, not the odometer's last minus first)." }),
      energy_method: z.object({ telemetry_soc: z.number().int(), consumption_factor: z.number().int(), none: z.number().int() }),
      vehicles_without_data: z.number().int(),
      limitations: z.array(z.string()),
    }),
    generated_at: z.string(),
    method_version: z.string(),
    esrs_version: z.string(),
    notes: z.array(z.string()),
  })
  .meta({ id: "CsrdReport" });

export type CsrdQuery = z.output<typeof csrdQuerySchema>;
