import { z } from "zod";
import { POWERTRAINS } from "@/lib/vocabulary/powertrain";
import { EOL_GRADES, KNOCKOUTS, TAS_PILLARS } from "@/lib/vocabulary/scores";
import { dateTime, deviceId, deviceIdPath } from "./common";
import { fleetRiskScoreSchema, greenFleetScoreSchema } from "./scores-fleet";

const score = () => z.number().min(0).max(100);
const confidence = () => z.enum(["high", "medium", "low"]);

/** A knockout's evidence (CONTRACT: a knockout names its readings and timestamps). */
const knockoutEvidenceSchema = z
  .object({
    knockout: z.enum(KNOCKOUTS),
    statement: z.string(),
    readings: z.array(
      z.object({
        role: z.string().meta({ description: "highest_earlier, first_lower, latest (odometer); latest_plausible_soh (SoH)." }),
        value: z.number(),
        unit: z.enum(["km", "%"]),
        at: dateTime(),
      }),
    ),
    readings_since: z.number().int().optional().meta({ description: "Odometer: readings from the first lower one through the latest." }),
  })
  .meta({ id: "KnockoutEvidence" });

/** A knockout set aside because a reviewer dismissed its alert as a false alarm (lib/scores/knockout-evidence.ts). */
const dismissedKnockoutEvidenceSchema = knockoutEvidenceSchema
  .extend({
    alert_id: z.string().meta({ description: "The dismissed alert." }),
    dismissed_at: dateTime(),
    reason: z.string().meta({ description: "The reviewer's reason." }),
  })
  .meta({ id: "DismissedKnockoutEvidence" });

/** A reading the validity rules set aside (lib/vocabulary/readings.ts). */
const excludedReadingSchema = z
  .object({
    signal: z.literal("soh_pct"),
    value: z.number(),
    at: dateTime(),
    reason: z.enum(["implausible_value", "unconfirmed_jump"]),
    statement: z.string(),
  })
  .meta({ id: "ExcludedReading" });

/** Path parameter `{device_id}` of endpoints 4, 6, 7 and 17. */
export const deviceIdParamsSchema = deviceIdPath();

// ---------------------------------------------------------------------------------------------
// Endpoint 4 (SPEC 2.4)

/** The 90-day rule of CONTRACT "Evidence and trust" as every answer states it (lib/vocabulary/readings.ts `sohEvidenceBody`). */
export const sohEvidenceSchema = z
  .object({
    status: z.enum(["measured", "outdated", "none", "not_applicable"]).meta({
      description:
        "measured: a plausible reading at most `max_age_days` old is today's value; outdated: the latest plausible reading is older and is not used as today's value (it may still cap, never credit); none: never read; not_applicable: no traction battery whose SoH the OEM reports.",
    }),
    max_age_days: z.number().int(),
    last_reading_pct: z.number().nullable(),
    last_reading_at: dateTime().nullable(),
    age_days: z.number().int().nullable().meta({ description: "Whole days between the reading and `generated_at`." }),
    statement: z.string(),
  })
  .meta({ id: "SohEvidence", description: "What the battery's state of health rests on: which reading, how old." });

const VEHICLE_HEALTH_SIGNALS = ["soh_pct", "dtc_codes", "battery_voltage", "odometer_km"] as const;

export const vehicleHealthScoreSchema = z
  .object({
    device_id: z.string(),
    vehicle_health_score: score().meta({ description: "0–100, one decimal, higher = healthier." }),
    score_version: z.string(),
    confidence: confidence(),
    components: z
      .object({
        battery: score().nullable(),
        diagnostics: score().nullable(),
        electrical_12v: score().nullable(),
        odometer_integrity: score().nullable(),
        usage: score().nullable(),
      })
      .meta({ description: "Each 0–100; null when the vehicle does not report what the component needs." }),
    available_signals: z.array(z.enum(VEHICLE_HEALTH_SIGNALS)),
    missing_signals: z.array(z.enum(VEHICLE_HEALTH_SIGNALS)),
    soh_evidence: sohEvidenceSchema,
    limitations: z.array(z.string()),
    generated_at: dateTime(),
  })
  .meta({ id: "VehicleHealthScore", description: "Vehicle health score (docs/methodology/vehicle-health.md)." });
export type VehicleHealthScore = z.output<typeof vehicleHealthScoreSchema>;

// ---------------------------------------------------------------------------------------------
// Endpoint 6 (SPEC 2.6)

export const batteryHealthSnapshotSchema = z
  .object({
    device_id: z.string(),
    snapshot: z.object({
      soc_current_pct: z.number().nullable(),
      battery_voltage: z.number().nullable(),
      charging_status: z.string().nullable(),
      charging_power_kw: z.number().nullable(),
      estimated_range_km: z.number().nullable(),
    }),
    last_battery_alert: z.object({ severity: z.string(), prediction: z.string(), confidence: z.number(), created_at: dateTime() }).nullable(),
    data_quality: z
      .object({
        method_version: z.string(),
        missing_fields: z.array(z.string()),
        not_applicable_fields: z.array(z.string()),
        latest_telemetry_at: dateTime().nullable(),
        data_age_seconds: z.number().int().nullable(),
        freshness: z.enum(["fresh", "recent", "stale", "none"]),
        soh_pct: z.number().nullable().meta({ description: "Only a reading at most 90 days old (see `soh_evidence`); otherwise null and listed in `missing_fields`." }),
        soh_source: z.literal("oem_bms").nullable(),
        soh_reported_at: dateTime().nullable(),
        soh_evidence: sohEvidenceSchema,
        powertrain: z.enum(POWERTRAINS).nullable(),
        has_traction_battery: z.boolean().nullable(),
        excluded_readings: z.array(excludedReadingSchema).meta({ description: "State of health readings set aside as implausible." }),
        range_model: z
          .object({
            consumption_kwh_per_km: z.number(),
            temperature_c: z.number().nullable(),
            temperature_assumed: z.boolean(),
            cold_penalty_pct: z.number(),
            soh_applied: z.boolean(),
          })
          .nullable(),
      })
      .meta({ description: "Numbers that cannot be known are null and named in `missing_fields`." }),
    generated_at: dateTime(),
  })
  .meta({ id: "BatteryHealthSnapshot", description: "Battery health snapshot (docs/methodology/battery-snapshot.md)." });
export type BatteryHealthSnapshot = z.output<typeof batteryHealthSnapshotSchema>;

// ---------------------------------------------------------------------------------------------
// Endpoint 7 (SPEC 2.7)

export const eolSummarySchema = z
  .object({
    device_id: z.string(),
    condition_grade: z.enum(EOL_GRADES),
    vehicle_health_score: score().nullable().meta({ description: "null when no health signal was measured (the grade is then a placeholder, confidence low)." }),
    confidence: confidence().meta({ description: "How far the grade rests on measured evidence (an FDP addition to SPEC 2.7)." }),
    knockout_evidence: z.array(knockoutEvidenceSchema),
    excluded_readings: z.array(excludedReadingSchema),
    soh_evidence: sohEvidenceSchema,
    limitations: z.array(z.string()),
    generated_at: dateTime(),
  })
  .meta({ id: "EolSummary", description: "End-of-life (lease return) condition summary (docs/methodology/eol-summary.md)." });
export type EolSummaryBody = z.output<typeof eolSummarySchema>;

// ---------------------------------------------------------------------------------------------
// Endpoint 17 (SPEC 2.14)

const TAS_GRADES = ["A", "B", "C", "D", "E", "F"] as const;

const tasPillarSchema = z.object({
  score: score(),
  source: z.enum(["oem_bms", "telemetry_derived", "master_data", "telemetry_and_master_data", "insufficient_data", "not_applicable"]),
});

export const tasScoreSchema = z
  .object({
    device_id: z.string(),
    tas_grade: z.enum(TAS_GRADES),
    tas_score: score(),
    score_version: z.string(),
    confidence: confidence(),
    pillars: z.object(Object.fromEntries(TAS_PILLARS.map((p) => [p, tasPillarSchema])) as Record<(typeof TAS_PILLARS)[number], typeof tasPillarSchema>),
    knockout_flags: z.array(z.enum(KNOCKOUTS)),
    vertical: z.string().meta({ description: "The device's asset class (default passenger_car)." }),
    fuel_type: z.string().nullable(),
    data_quality: z
      .object({
        latest_telemetry_at: dateTime().nullable(),
        data_age_seconds: z.number().int().nullable(),
        coverage_pct: z.number().nullable(),
        freshness: z.string(),
        knockout_evidence: z.array(knockoutEvidenceSchema).meta({ description: "The readings behind each knockout flag." }),
        excluded_readings: z.array(excludedReadingSchema).meta({ description: "Readings set aside as implausible (not used by any score)." }),
        dismissed_evidence: z.array(dismissedKnockoutEvidenceSchema).meta({
          description: "Knockouts set aside because a reviewer dismissed the alert that cited their readings as a false alarm (docs/methodology/tas.md).",
        }),
      })
      .meta({ description: "How fresh and complete the inputs were (an FDP addition to SPEC 2.14)." }),
    generated_at: dateTime(),
  })
  .meta({ id: "TotalAssetScore", description: "Total Asset Score (docs/methodology/tas.md). Pillar weights are withheld." });
export type TasScore = z.output<typeof tasScoreSchema>;

// ---------------------------------------------------------------------------------------------
// Endpoint 9 (SPEC 4.1)

export const SCORE_NAMES = ["fleet_risk", "vehicle_health", "green_fleet", "battery_health", "eol_summary"] as const;
export const SCORES_BATCH_MAX = 100;
export const TAS_BATCH_MAX = 1000;

export const scoresBatchRequestSchema = z
  .object({
    device_ids: z
      .array(deviceId())
      .min(1, { message: "must hold at least 1 device id" })
      .max(SCORES_BATCH_MAX, { message: `must hold at most ${SCORES_BATCH_MAX} device ids` })
      .meta({
        description: `1–${SCORES_BATCH_MAX} device ids of the key's tenant, answered in this order; an unknown one is an item with an \`error\`, not a failed batch.`,
        examples: [["sbx-001", "sbx-015"]],
      }),
    scores: z
      .array(z.enum(SCORE_NAMES))
      .min(1, { message: "must name at least one score when given" })
      .optional()
      .meta({ description: "Which scores to compute for each device; default: all five.", examples: [["vehicle_health", "eol_summary"]] }),
  })
  .meta({ id: "ScoresBatchRequest" });
export type ScoresBatchRequest = z.output<typeof scoresBatchRequestSchema>;

const itemErrorSchema = z.object({ error: z.string(), message: z.string() });

export const scoresBatchItemSchema = z
  .object({
    device_id: z.string(),
    fleet_risk: fleetRiskScoreSchema.optional(),
    vehicle_health: vehicleHealthScoreSchema.optional(),
    green_fleet: greenFleetScoreSchema.optional(),
    battery_health: batteryHealthSnapshotSchema.optional(),
    eol_summary: eolSummarySchema.optional(),
    error: itemErrorSchema.optional().meta({ description: "Present (and no score keys) when this device failed." }),
  })
  .meta({ id: "ScoresBatchItem" });

export const scoresBatchResponseSchema = z
  .object({
    results: z.array(scoresBatchItemSchema),
    meta: z.object({
      total: z.number().int(),
      processed: z.number().int(),
      errors: z.number().int(),
      scores_requested: z.array(z.enum(SCORE_NAMES)),
    }),
    generated_at: dateTime(),
  })
  .meta({ id: "ScoresBatchResponse" });
export type ScoresBatchResponse = z.output<typeof scoresBatchResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Endpoint 18 (SPEC 4.3)

export const tasBatchRequestSchema = z
  .object({
    device_ids: z
      .array(deviceId())
      .min(1, { message: "must hold at least 1 device id" })
      .max(TAS_BATCH_MAX, { message: `must hold at most ${TAS_BATCH_MAX} device ids` })
      .meta({
        description: `1–${TAS_BATCH_MAX} device ids of the key's tenant, answered in this order; an unknown one has null scores and an \`error\`.`,
        examples: [["sbx-001", "sbx-015"]],
      }),
  })
  .meta({ id: "TasBatchRequest" });
export type TasBatchRequest = z.output<typeof tasBatchRequestSchema>;

export const tasBatchResponseSchema = z
  .object({
    results: z.array(
      z.object({
        device_id: z.string(),
        tas_grade: z.enum(TAS_GRADES).nullable(),
        tas_score: score().nullable(),
        confidence: confidence().nullable(),
        error: z.string().nullable(),
      }),
    ),
    meta: z.object({ total: z.number().int(), scored: z.number().int(), errors: z.number().int(), score_version: z.string() }),
    generated_at: dateTime(),
  })
  .meta({ id: "TasBatchResponse" });
export type TasBatchResponse = z.output<typeof tasBatchResponseSchema>;
