import { z } from "zod";
import { EOL_GRADES, KNOCKOUTS } from "@/lib/vocabulary/scores";
import { dateTime } from "./common";

/**
 * Endpoint 10 (SPEC 2.9): rule-based residual value of one vehicle. Every SPEC field with its type;
 * `adjustments`, `knockouts` and `data_quality.age_basis` are FDP additions that show how the number
 * was reached (docs/methodology/residual-value.md).
 */

const pct = () => z.number().min(0).max(100);
const score = () => z.number().min(0).max(100);

const RESIDUAL_CONFIDENCES = ["low", "medium", "high"] as const;
/** Where the age came from: lease start, model year, derived from the mileage, or assumed (nothing known). */
const AGE_BASES = ["lease_start", "year", "mileage", "assumed"] as const;
/** Whether the battery's state of health entered the estimate (SoH is asked of plug-ins and unknown powertrains only). */
const BATTERY_SOH_STATUSES = ["measured", "outdated", "not_measured", "not_applicable"] as const;

export const residualValueSchema = z
  .object({
    device_id: z.string(),
    estimation_method: z.string().meta({ description: "Versioned method id, e.g. rv-rules-2027.01; a new id whenever the rules or their constants change." }),
    estimated_residual_pct: pct().meta({ description: "Estimated value as a percentage of the original list price, 0–100, one decimal." }),
    estimated_residual_eur: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: "original_price_eur × estimated_residual_pct, whole euros; null when the device's master data has no original_price_eur." }),
    confidence: z.enum(RESIDUAL_CONFIDENCES),
    factors: z
      .object({
        age_months: z.number().int().min(0).nullable().meta({ description: "From lease_start or the model year (see data_quality.age_basis); null when neither is known." }),
        mileage_km: z
          .number()
          .min(0)
          .meta({ description: "The mileage the estimate used: the latest plausible odometer reading; assumed (and named in missing_fields) when none exists." }),
        battery_soh_pct: pct().nullable(),
        vehicle_health_score: score().nullable(),
        fleet_risk_score: score().nullable(),
        green_fleet_score: score().nullable(),
        eol_grade: z.enum(EOL_GRADES).nullable().meta({ description: "EOL condition grade; null when nothing was measured (the EOL placeholder grade certifies nothing)." }),
      })
      .meta({ description: "The inputs the estimate used." }),
    depreciation_curve: z.object({
      method: z.string(),
      annual_rate_pct: z.number().min(0).max(100).meta({ description: "The curve's depreciation rate in the vehicle's current year of life." }),
      battery_penalty_pct: z
        .number()
        .meta({ description: "Percent of the curve value lost to a state of health below the expected one for the age (negative: a bounded credit)." }),
      mileage_penalty_pct: z.number().meta({ description: "Percent of the curve value lost to mileage above the normal one for the age (negative: a bounded credit)." }),
    }),
    adjustments: z
      .object({
        vehicle_health_pct: z.number(),
        fleet_risk_pct: z.number(),
        green_fleet_pct: z.number(),
        total_pct: z.number().meta({ description: "Sum of the score adjustments, bounded." }),
        knockout_penalty_pct: z.number().min(0).max(100),
      })
      .meta({ description: "FDP addition: the bounded adjustments from the vehicle's scores and the knockout penalty, in percent of the value after penalties." }),
    knockouts: z.array(z.enum(KNOCKOUTS)).meta({ description: "FDP addition: EOL knockouts (grade F on evidence) that this estimate reflects." }),
    data_quality: z.object({
      completeness_pct: z.number().min(0).max(100),
      missing_fields: z.array(z.string()),
      age_basis: z.enum(AGE_BASES).meta({ description: "FDP addition: where the age came from." }),
      battery_soh_status: z.enum(BATTERY_SOH_STATUSES).meta({
        description:
          "FDP addition: measured (a plausible SoH reading at most 90 days old priced in), outdated (the latest reading is older: not today's SoH; it bounds it from above, so its penalty applies but no credit; confidence at most medium), not_measured (a plug-in or unknown powertrain without one: no battery adjustment, confidence at most medium), not_applicable (ICE, HEV).",
      }),
      notes: z.array(z.string()).meta({ description: "FDP addition: what the estimate could not see, in words (e.g. the battery's state of health not measured)." }),
    }),
    disclaimer: z.string(),
    generated_at: dateTime(),
  })
  .meta({ id: "ResidualValue", description: "Rule-based residual value estimate (docs/methodology/residual-value.md)." });

export type ResidualValueBody = z.output<typeof residualValueSchema>;
