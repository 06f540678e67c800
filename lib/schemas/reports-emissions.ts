import { z } from "zod";
import { REPORT_POWERTRAINS } from "@/lib/vocabulary/powertrain";
import { DISTANCE_METHOD_DESCRIPTION, DISTANCE_METHODS } from "@/lib/vocabulary/distance";

/** Longest report range, both ends counted (CONTRACT "Settled details"). */
export const MAX_REPORT_DAYS = 366;

/** The earliest date a report accepts. */
const MIN_REPORT_DATE = "2000-01-01";

/** A real calendar date `YYYY-MM-DD` (2026-02-30 is refused, not rolled over to March). */
const reportDate = () =>
  z
    .string()
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: "must be a date YYYY-MM-DD" })
    .refine(
      (v) => {
        const d = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
      },
      { message: "is not a calendar date" },
    )
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

const factorSchema = z.object({
  id: z.string(),
  value: z.number(),
  unit: z.string(),
  year: z.number().int(),
  basis: z.string(),
  source: z.string(),
});

/** The evidence behind a vehicle's distance_km (lib/reports/emissions.ts DistanceEvidenceSummary). */
const distanceEvidenceSchema = z
  .object({
    odometer_km: z.number().nullable().meta({ description: "Sum of the odometer's plausible consecutive increases in the period, km; null without two plausible readings." }),
    odometer_readings: z.number().int().meta({ description: "Plausible odometer readings in the period (one-sample spikes excluded)." }),
    odometer_rollbacks: z.array(z.object({ at: z.string(), from_km: z.number(), to_km: z.number() })).meta({
      description:
        "Readings more than 1 km below the odometer's level that no later reading contradicts (rollback or reset): when, the level and the reading. The step across is not counted; increases are summed on from the lower reading.",
    }),
    odometer_spikes: z.number().int().meta({ description: "One-sample spike readings set aside (the odometer-integrity detector's rule)." }),
    odometer_jumps: z.number().int().meta({ description: "Implausible forward jumps (> 50 km at > 250 km/h average), not counted as driven." }),
    odometer_contradicted_drops: z.number().int().meta({ description: "Drops below the level that later readings contradicted (data errors), set aside." }),
    gps_km: z.number().nullable().meta({
      description:
        "Great-circle sum over consecutive plausible positions of the period, km (a lower bound of the road distance); null when it was not needed: the odometer has two plausible readings and even the sum over all positions (from the daily rollups, never below the plausible one) is within the margin, so the odometer covers the period.",
    }),
  })
  .meta({ description: "What the period's readings said about the distance, for an auditor's check of distance_method." });

const emissionsVehicleSchema = z.object({
  device_id: z.string(),
  device_name: z.string(),
  powertrain: z.enum(REPORT_POWERTRAINS),
  distance_km: z.number(),
  distance_method: z.enum(DISTANCE_METHODS).meta({ description: `How distance_km was measured (docs/methodology/emissions.md#distance): ${DISTANCE_METHOD_DESCRIPTION}.` }),
  distance_note: z.string().meta({
    description: "One sentence for an auditor: what was measured, what was set aside (a rollback or reset with its readings, spikes, jumps) or why the odometer was not used.",
  }),
  distance_evidence: distanceEvidenceSchema,
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
