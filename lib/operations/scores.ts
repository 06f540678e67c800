import {
  batteryHealthSnapshotSchema,
  deviceIdParamsSchema,
  eolSummarySchema,
  SCORES_BATCH_MAX,
  scoresBatchRequestSchema,
  scoresBatchResponseSchema,
  TAS_BATCH_MAX,
  tasBatchRequestSchema,
  tasBatchResponseSchema,
  tasScoreSchema,
  vehicleHealthScoreSchema,
} from "@/lib/schemas/scores-device";
import { fleetRiskScoreSchema, fleetScoreQuerySchema, greenFleetScoreSchema } from "@/lib/schemas/scores-fleet";
import { getBatterySnapshot } from "@/lib/scores/get-battery-snapshot";
import { getEolSummary } from "@/lib/scores/get-eol-summary";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { getTas } from "@/lib/scores/get-tas";
import { getVehicleHealth } from "@/lib/scores/get-vehicle-health";
import { scoresBatch } from "@/lib/scores/score-batch";
import { tasBatch } from "@/lib/scores/tas-batch";
import { defineOperation } from "./define-operation";

const scoresRead = { scope: "scores:read" } as const;
const unknownDevice = { 404: "Unknown device, or one of another tenant (the two look the same)." };

/** Endpoint 3. */
export const getFleetRiskOperation = defineOperation({
  id: "getFleetRiskScore",
  method: "GET",
  path: "/scores/fleet-risk",
  access: scoresRead,
  cost: "heavy",
  reads: "replica",
  tag: "Scores",
  summary: "Fleet risk score (0–100, higher = riskier) over a period",
  description: "Method and sources: docs/methodology/fleet-risk.md.",
  input: { query: fleetScoreQuerySchema },
  output: fleetRiskScoreSchema,
  requestExample: { query: { period: "30d" } },
  verb: getFleetRisk,
});

/** Endpoint 5. */
export const getGreenFleetOperation = defineOperation({
  id: "getGreenFleetScore",
  method: "GET",
  path: "/scores/green-fleet",
  access: scoresRead,
  cost: "heavy",
  reads: "replica",
  tag: "Scores",
  summary: "Green fleet score (0–100) over a period: EV share, CO₂ intensity, energy efficiency",
  description: "Method and sources: docs/methodology/green-fleet.md.",
  input: { query: fleetScoreQuerySchema },
  output: greenFleetScoreSchema,
  requestExample: { query: { period: "90d" } },
  verb: getGreenFleet,
});

/** Endpoint 4. */
export const getVehicleHealthOperation = defineOperation({
  id: "getVehicleHealthScore",
  method: "GET",
  path: "/scores/vehicle-health/{device_id}",
  access: scoresRead,
  reads: "replica",
  tag: "Scores",
  summary: "Vehicle health score (0–100, higher = healthier)",
  description: "Method and sources: docs/methodology/vehicle-health.md.",
  input: { path: deviceIdParamsSchema },
  output: vehicleHealthScoreSchema,
  errors: unknownDevice,
  requestExample: { path: { device_id: "sbx-001" } },
  verb: getVehicleHealth,
});

/** Endpoint 6. */
export const getBatterySnapshotOperation = defineOperation({
  id: "getBatteryHealthSnapshot",
  method: "GET",
  path: "/vehicles/{device_id}/battery-health-snapshot",
  access: scoresRead,
  reads: "replica",
  tag: "Scores",
  summary: "Battery health snapshot",
  description: "Method and sources: docs/methodology/battery-snapshot.md. Numbers that cannot be known are null and named in `data_quality.missing_fields`.",
  input: { path: deviceIdParamsSchema },
  output: batteryHealthSnapshotSchema,
  errors: unknownDevice,
  requestExample: { path: { device_id: "sbx-001" } },
  verb: getBatterySnapshot,
});

/** Endpoint 7. */
export const getEolSummaryOperation = defineOperation({
  id: "getEolSummary",
  method: "GET",
  path: "/vehicles/{device_id}/eol-summary",
  access: scoresRead,
  reads: "replica",
  tag: "Scores",
  summary: "End-of-life summary with condition grade A–F",
  description: "Method and sources: docs/methodology/eol-summary.md.",
  input: { path: deviceIdParamsSchema },
  output: eolSummarySchema,
  errors: unknownDevice,
  requestExample: { path: { device_id: "sbx-001" } },
  verb: getEolSummary,
});

/** Endpoint 17. */
export const getTasOperation = defineOperation({
  id: "getTotalAssetScore",
  method: "GET",
  path: "/tas/{device_id}",
  access: scoresRead,
  reads: "replica",
  tag: "Scores",
  summary: "Total Asset Score with grade A–F and pillars",
  description: "Method and sources: docs/methodology/tas.md. Knockouts (`soh_below_60`, `odometer_manipulation`) force grade F.",
  input: { path: deviceIdParamsSchema },
  output: tasScoreSchema,
  errors: unknownDevice,
  requestExample: { path: { device_id: "sbx-001" } },
  verb: getTas,
});

/** Endpoint 9. */
export const scoresBatchOperation = defineOperation({
  id: "scoreDevicesBatch",
  method: "POST",
  path: "/scores/batch",
  access: scoresRead,
  cost: "heavy",
  reads: "replica",
  tag: "Scores",
  summary: `Up to ${SCORES_BATCH_MAX} devices, any of the five scores; a failed device does not fail the batch`,
  description:
    "One item per requested id, in request order. A device the tenant does not hold, or whose computation fails, is an item `{device_id, error: {error, message}}`; `meta.processed + meta.errors == meta.total`.",
  input: { body: scoresBatchRequestSchema },
  output: scoresBatchResponseSchema,
  requestExample: { body: { device_ids: ["sbx-001", "sbx-015"], scores: ["vehicle_health", "eol_summary"] } },
  verb: scoresBatch,
});

/** Endpoint 18. */
export const tasBatchOperation = defineOperation({
  id: "getTotalAssetScoreBatch",
  method: "POST",
  path: "/tas/batch",
  access: scoresRead,
  cost: "heavy",
  reads: "replica",
  tag: "Scores",
  summary: `Total Asset Score for up to ${TAS_BATCH_MAX} devices`,
  description: "One item per requested id, in request order; a device that is unknown or fails has null score fields and an `error`.",
  input: { body: tasBatchRequestSchema },
  output: tasBatchResponseSchema,
  requestExample: { body: { device_ids: ["sbx-001", "sbx-015", "sbx-999"] } },
  verb: tasBatch,
});
