import { z } from "zod";
import { DISTANCE_METHOD_DESCRIPTION } from "@/lib/vocabulary/distance";
import { REPORT_POWERTRAINS } from "@/lib/vocabulary/powertrain";
import { REPORTING_ROLE_DESCRIPTION, REPORTING_ROLES } from "@/lib/vocabulary/reporting-role";
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
    value: z
      .number()
      .nullable()
      .meta({ description: `${unit}; null when it cannot be computed (see notes).` }),
    unit: z.literal(unit),
    datapoint: z.string().meta({ description: "The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`)." }),
    label: z.string(),
  });

const componentsSchema = z.object({
  ev_share: z.number().nullable(),
  co2_intensity: z.number().nullable(),
  energy_efficiency: z.number().nullable(),
});

const bioShareYear = z.object({
  year: z.number().int(),
  days: z.number().int().meta({ description: "Days of the period in this calendar year." }),
  share: z.number().meta({ description: "Share of the fuel's energy that is renewable (0–1)." }),
  status: z.enum(["statutory", "estimate", "not_split"]).meta({
    description:
      "`statutory`: the verified statutory share of the year; `estimate`: the year's statutory level was not verified, the last verified one is applied; `not_split`: before 2021 (double counting), all fuel counted fossil.",
  }),
  verified: z.boolean(),
  source: z.string(),
});

const gridFactorSchema = z
  .object({
    id: z.string(),
    value: z.number().meta({ description: "g CO2e per kWh at the plug." }),
    unit: z.literal("g CO2e/kWh"),
    year: z.number().int(),
    basis: z.string().meta({ description: "`generation (combustion), no upstream`: the GHG Protocol's Scope 2; the upstream is Scope 3 category 3." }),
    source: z.string(),
    verified: z.boolean().meta({ description: "false: the figure could not be checked against its primary source (`note` says what is used instead)." }),
    note: z.string(),
  })
  .meta({ description: "The Finnish grid generation factor Scope 2 location-based uses, with its year, basis and source." });

export const csrdReportSchema = z
  .object({
    period: z.object({ start_date: z.string(), end_date: z.string(), days: z.number().int() }),
    reporting_role: z.enum(REPORTING_ROLES).meta({ description: `The tenant's CSRD reporting role (admin CLI tenant:update --reporting-role): ${REPORTING_ROLE_DESCRIPTION}.` }),
    consolidation_basis: z.string().meta({ description: "The consolidation basis of the role in words (GHG Protocol: operational control, or lessor with category 13)." }),
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
          fuel_mwh: z.number().meta({ description: "Fuel energy of the account's own operation (a lessor: outside the leases)." }),
          fuel_fossil_mwh: z.number(),
          fuel_renewable_mwh: z.number(),
          fuel_bio_share: z.object({ share: z.number(), basis: z.string(), years: z.array(bioShareYear) }).meta({
            description:
              "The Finnish distribution obligation's bio share (Act 446/2007) applied to the fuel energy: a statutory minimum, not a measured blend; per year of the period.",
          }),
          electricity_mwh: z.number(),
          leased_out_mwh: z
            .number()
            .meta({ description: "A lessor: the fuel and electricity of the lease-covered days (the lessees' consumption), not in the figures above; 0 for an operator." }),
          electricity_mix: z.object({ renewable_share: z.number(), nuclear_share: z.number(), fossil_share: z.number(), year: z.number().int(), basis: z.string() }),
          factors_version: z.string().meta({ description: "Version of the energy factors (fuel CO2 per kWh, Finnish generation mix)." }),
        })
        .meta({ description: "ESRS E1-5: energy consumption by source, MWh." }),
    }),
    emissions: z
      .object({
        unit: z.literal("tCO2e"),
        scope_1: figure("tCO2e"),
        scope_2_location_based: figure("tCO2e").extend({ grid_factor: gridFactorSchema }),
        scope_2_market_based: figure("tCO2e").extend({ contract_factor_g_per_kwh: z.number().nullable() }),
        scope_3: figure("tCO2e"),
        scope_3_categories: z.object({
          cat_3_fuel_and_energy_related: figure("tCO2e").extend({
            fuel_well_to_tank: z.number().meta({ description: "tCO2e: well-to-tank of the fuels." }),
            electricity_upstream: z.number().meta({ description: "tCO2e: upstream of the charging electricity (life-cycle − generation)." }),
          }),
          cat_13_downstream_leased_assets: figure("tCO2e")
            .extend({
              reported: z.boolean(),
              included_in_total: z.boolean(),
              reason: z.string().nullable().meta({ description: "Why category 13 is not reported (an operator); null when it is." }),
              lessee_scope_1_and_2: z.number().nullable().meta({ description: "tCO2e: the lessees' Scope 1 and 2 on the covered days (tank-to-wheel and generation)." }),
              fuel_and_energy_upstream: z.number().nullable().meta({ description: "tCO2e: well-to-tank and electricity upstream on the covered days." }),
              vehicles: z.number().int().meta({ description: "Vehicles with days in category 13 (0 for an operator)." }),
            })
            .meta({
              description: "Lessor: the lease-covered days' emissions, included in the total and not in Scope 1 or 2. Operator: not reported (value null, with the reason).",
            }),
        }),
        leased_vehicles: z
          .array(
            z.object({
              device_id: z.string(),
              covered_days: z.number().int(),
              covered_share: z.number(),
              cat_13: z.number().meta({ description: "tCO2e in category 13 (0 for an operator)." }),
              own_operation: z.number().meta({ description: "tCO2e in Scope 1, 2 and category 3." }),
            }),
          )
          .meta({
            description: "Every vehicle whose lease (lease_start + lease_months) covers days of the period: cat_13 + own_operation = its co2_kg in the emissions report ÷ 1000.",
          }),
        total_location_based: figure("tCO2e").meta({
          description: "Scope 1 + Scope 2 (location-based) + Scope 3; equals the emissions report's total_co2_kg_estimate ÷ 1000 for the same dates, in both roles.",
        }),
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
      odometer_rollback_vehicles: z.array(z.string()).meta({
        description: "Vehicles whose odometer had a rollback or reset in the period (their distance is the sum of plausible increases, not the odometer's last minus first).",
      }),
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
