import type { z } from "zod";
import { DEFAULT_PERIOD_DAYS, fleetRiskScoreSchema, greenFleetScoreSchema } from "@/lib/schemas/scores-fleet";
import { batteryHealthSnapshotSchema, tasScoreSchema, vehicleHealthScoreSchema } from "@/lib/schemas/scores-device";
import { CURRENT_RESIDUAL_MODEL } from "@/lib/leasing/residual-model/current-model";
import { RESIDUAL_RULES_VERSION } from "@/lib/leasing/residual-value-rules";
import { residualValuePredictionSchema } from "@/lib/schemas/leasing-residual-model";
import { residualValueSchema } from "@/lib/schemas/leasing-residual";
import { BATTERY_SNAPSHOT_VERSION } from "@/lib/scores/battery-snapshot";
import { FLEET_RISK_VERSION } from "@/lib/scores/fleet-risk";
import { GREEN_FLEET_VERSION } from "@/lib/scores/green-fleet";
import { TAS_SCORE_VERSION } from "@/lib/scores/tas";
import { VEHICLE_HEALTH_VERSION } from "@/lib/scores/vehicle-health";

/**
 * What the dashboard keeps maintained (table score_snapshots): each kind with the method version its
 * rows must carry to be shown and the API schema its answer must pass when read back. A formula
 * change bumps its version, so rows computed by the old one are ignored (the page computes instead)
 * until the next refresh replaces them.
 */
export const SNAPSHOT_KINDS = {
  fleet_risk: { version: FLEET_RISK_VERSION, schema: fleetRiskScoreSchema },
  green_fleet: { version: GREEN_FLEET_VERSION, schema: greenFleetScoreSchema },
  tas: { version: TAS_SCORE_VERSION, schema: tasScoreSchema },
  vehicle_health: { version: VEHICLE_HEALTH_VERSION, schema: vehicleHealthScoreSchema },
  battery_health: { version: BATTERY_SNAPSHOT_VERSION, schema: batteryHealthSnapshotSchema },
  residual_value: { version: RESIDUAL_RULES_VERSION, schema: residualValueSchema },
  /** The model-based residual value with the endpoint's default query (the vehicle page's). */
  residual_model: { version: CURRENT_RESIDUAL_MODEL.model_version, schema: residualValuePredictionSchema },
} as const satisfies Record<string, { version: string; schema: z.ZodType }>;

export type SnapshotKind = keyof typeof SNAPSHOT_KINDS;
export type SnapshotAnswer<K extends SnapshotKind> = z.output<(typeof SNAPSHOT_KINDS)[K]["schema"]>;

/** The fleet scores' period the dashboard opens with (and the only one maintained; other periods are computed on request). */
export const MAINTAINED_PERIOD_DAYS = DEFAULT_PERIOD_DAYS;

/** Devices per load while refreshing: five loads per chunk (a bounded number of round trips), whatever its size. */
export const SNAPSHOT_CHUNK_DEVICES = 200;
