import { z } from "zod";
import { dateTime } from "./common";

/** Longest accepted `period`, in days (one year). Longer periods are a 400, never clamped (CONTRACT "Errors"). */
export const MAX_PERIOD_DAYS = 365;
export const DEFAULT_PERIOD_DAYS = 30;
const DEFAULT_PERIOD = `${DEFAULT_PERIOD_DAYS}d`;

/**
 * SPEC's `^[0-9]+d$` narrowed to what the server accepts, 1 to MAX_PERIOD_DAYS days (leading zeros
 * allowed), so the OpenAPI document states the real bound. The parser below checks the SPEC pattern,
 * then the range, to say which rule a value broke; tests/unit/openapi/period-pattern.test.ts keeps the
 * two equivalent.
 */
export const PERIOD_PATTERN = /^0*(?:[1-9][0-9]?|[12][0-9]{2}|3[0-5][0-9]|36[0-5])d$/;

/**
 * `period` of endpoints 3 and 5: `^[0-9]+d$` (SPEC 4), 1 to MAX_PERIOD_DAYS days, default DEFAULT_PERIOD.
 * Parsed to the number of days (`7d` → 7).
 */
const periodQueryParam = () =>
  z
    .string()
    .regex(/^[0-9]+d$/, { message: `must be a number of days like 30d (1d to ${MAX_PERIOD_DAYS}d)` })
    .transform((v) => Number(v.slice(0, -1)))
    .pipe(
      z
        .number()
        .int()
        .min(1, { message: "must be at least 1d" })
        .max(MAX_PERIOD_DAYS, { message: `must be at most ${MAX_PERIOD_DAYS}d` }),
    )
    .optional()
    .default(DEFAULT_PERIOD_DAYS)
    .meta({
      type: "string",
      pattern: PERIOD_PATTERN.source,
      default: DEFAULT_PERIOD,
      examples: ["30d", "365d"],
      description: `Look-back period in days, \`<N>d\` with N from 1 to ${MAX_PERIOD_DAYS} (default ${DEFAULT_PERIOD}).`,
    });

export const fleetScoreQuerySchema = z.object({ period: periodQueryParam() });
/** `{ period: <days> }` after parsing. */
export type FleetScoreQuery = z.output<typeof fleetScoreQuerySchema>;

const score = () => z.number().min(0).max(100);
const confidence = () => z.enum(["high", "medium", "low"]);

/** SPEC 2.3. */
export const fleetRiskScoreSchema = z
  .object({
    fleet_risk_score: score().meta({ description: "0–100, one decimal, higher = riskier." }),
    score_version: z.string(),
    confidence: confidence(),
    period_days: z.number().int(),
    device_count: z.number().int(),
    alerts_period: z.number().int().meta({ description: "Alerts created in the period, acknowledged or not." }),
    critical_alerts_period: z.number().int(),
    severity_distribution: z.object({ critical: z.number().int(), warning: z.number().int(), info: z.number().int() }),
    scoring_method: z.string(),
    components: z.object({
      event_severity: score(),
      weather_exposure: score(),
      time_pattern: score(),
      speed_compliance: score(),
      ev_charging_risk: score(),
    }),
    limitations: z.array(z.string()),
    generated_at: dateTime(),
  })
  .meta({ id: "FleetRiskScore", description: "Fleet risk score (docs/methodology/fleet-risk.md)." });
export type FleetRiskScore = z.output<typeof fleetRiskScoreSchema>;

/** SPEC 2.5 (plus `confidence`, which every FDP score carries). */
export const greenFleetScoreSchema = z
  .object({
    green_fleet_score: score().meta({ description: "0–100, one decimal, higher = greener." }),
    score_version: z.string(),
    components: z
      .object({
        ev_share: score().nullable(),
        co2_intensity: score().nullable(),
        energy_efficiency: score().nullable(),
      })
      .meta({ description: "Each 0–100; null when it cannot be computed (then left out of the weighting)." }),
    limitations: z.array(z.string()),
    generated_at: dateTime(),
    confidence: confidence(),
  })
  .meta({ id: "GreenFleetScore", description: "Green fleet score (docs/methodology/green-fleet.md)." });
export type GreenFleetScore = z.output<typeof greenFleetScoreSchema>;
