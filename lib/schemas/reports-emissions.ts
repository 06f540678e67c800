import { z } from "zod";
import { REPORT_POWERTRAINS } from "@/lib/reports/emissions";

/** Longest report range, both ends counted (CONTRACT "Settled details"). */
export const MAX_REPORT_DAYS = 366;

/** The earliest date a report accepts. */
export const MIN_REPORT_DATE = "2000-01-01";

/** A real calendar date `YYYY-MM-DD` (2026-02-30 is refused, not rolled over to March). */
export const reportDate = () =>
  z
    .string()
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: "must be a date YYYY-MM-DD" })
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, { message: "is not a calendar date" })
    // No telemetry predates it, and Postgres refuses year 0 (a 500, not an answer).
    .refine((v) => v >= MIN_REPORT_DATE, { message: `must be ${MIN_REPORT_DATE} or later` });

/** The period of every report (emissions, CSRD); the cross-field rules are lib/reports/report-range.ts. */
export const reportPeriodQueryFields = {
  start_date: reportDate().meta({ description: `First day of the period (UTC), YYYY-MM-DD, ${MIN_REPORT_DATE} or later.`, examples: ["2026-01-01"] }),
  end_date: reportDate().meta({
    description: `Last day of the period (UTC, inclusive), YYYY-MM-DD: not before start_date, not after today, at most ${MAX_REPORT_DAYS} days counting both ends.`,
    examples: ["2026-01-31"],
  }),
};

export const emissionsQuerySchema = z.object({
  ...reportPeriodQueryFields,
  format: z.enum(["json", "csv"]).default("json").meta({ description: "`json` (default) or `csv` (`text/csv; charset=utf-8`: header, one row per vehicle, a final TOTAL row)." }),
});

export const factorSchema = z.object({
  id: z.string(),
  value: z.number(),
  unit: z.string(),
  year: z.number().int(),
  basis: z.string(),
  source: z.string(),
});

export const emissionsVehicleSchema = z.object({
  device_id: z.string(),
  device_name: z.string(),
  powertrain: z.enum(REPORT_POWERTRAINS),
  distance_km: z.number(),
  distance_method: z.enum(["odometer", "great_circle", "none"]),
  energy_kwh: z.number().meta({ description: "Electricity at the plug, kWh (charger losses included); 0 for fuel vehicles." }),
  fuel_l: z.number().nullable().meta({ description: "Fuel, litres, where a per-litre factor is registered; null otherwise." }),
  energy_method: z.enum(["telemetry_soc", "consumption_factor", "none"]),
  co2_kg: z.number(),
  factor_ids: z.array(z.string()),
});

export const emissionsReportSchema = z
  .object({
    period_start: z.string().meta({ description: "First day, YYYY-MM-DD." }),
    period_end: z.string().meta({ description: "Last day (inclusive), YYYY-MM-DD." }),
    total_vehicles: z.number().int(),
    ev_count: z.number().int().meta({ description: "BEV and PHEV." }),
    ice_count: z.number().int().meta({ description: "ICE and HEV." }),
    total_co2_kg_estimate: z.number(),
    generated_at: z.string(),
    method_version: z.string(),
    factors: z.object({ version: z.string(), used: z.array(factorSchema) }),
    vehicles: z.array(emissionsVehicleSchema),
    notes: z.array(z.string()),
  })
  .meta({ id: "EmissionsReport" });
