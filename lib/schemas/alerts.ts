import { z } from "zod";
import { ALERT_AGENTS, SEVERITIES } from "@/lib/vocabulary/alerts";
import { booleanQueryParam, dateTime, intQueryParam, listEnvelope } from "./common";

/** GET /alerts' `limit`: its range and default. */
export const ALERTS_LIMIT = { min: 1, max: 200, fallback: 50 } as const;

export const alertsQuerySchema = z.object({
  limit: intQueryParam(ALERTS_LIMIT).meta({ description: `Most alerts to return, ${ALERTS_LIMIT.min}–${ALERTS_LIMIT.max} (default ${ALERTS_LIMIT.fallback}), newest first.` }),
  severity: z
    .string()
    // ASCII letters only before upper-casing: JavaScript maps `ı` (dotless i) to `I`, and `ınfo` is no severity.
    .regex(/^[A-Za-z]+$/, { message: "must be one of CRITICAL, WARNING, INFO" })
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(SEVERITIES, { message: `must be one of ${SEVERITIES.join(", ")}` }))
    .optional()
    .meta({
      type: "string",
      enum: [...SEVERITIES],
      description: "Only alerts of this severity: CRITICAL, WARNING or INFO, matched case-insensitively (`info` is INFO). Default: all.",
      examples: ["CRITICAL"],
    }),
  acknowledged: booleanQueryParam().meta({ description: "`false`: only alerts no one has acknowledged yet; `true`: only acknowledged ones (case-insensitive). Default: both." }),
});
export type AlertsQuery = z.output<typeof alertsQuerySchema>;

const alertSchema = z
  .object({
    id: z.string(),
    device_id: z.string(),
    agent: z.string().meta({ description: `Detector that raised the alert: ${ALERT_AGENTS.join(", ")}.` }),
    severity: z.enum(SEVERITIES),
    prediction: z.string(),
    confidence: z.number().min(0).max(1),
    technical_data: z.record(z.string(), z.unknown()).meta({
      description:
        "The evidence: values, thresholds, timestamps of the latest occurrence, and the alert's lifecycle: `occurrences`, `first_occurrence_at`, `last_occurrence_at` (device time), `worst_value` and `latest_value` of the measure named by `value_field` (`worse_when`: higher or lower).",
    }),
    acknowledged: z.boolean(),
    acknowledged_by: z.string().nullable(),
    acknowledged_at: dateTime().nullable(),
    created_at: dateTime(),
  })
  .meta({ id: "Alert" });

export const alertListSchema = listEnvelope(alertSchema, "AlertList");
export type AlertList = z.output<typeof alertListSchema>;
