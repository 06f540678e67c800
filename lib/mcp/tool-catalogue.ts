import type { Operation } from "@/lib/operations/define-operation";
import { generateCertificateOperation, getCertificateOperation, verifyCertificateOperation } from "@/lib/operations/certificates";
import { getChargingRecommendationOperation } from "@/lib/operations/charging";
import { getSpotPricesOperation } from "@/lib/operations/energy";
import { listAlertsOperation, listFleetOperation } from "@/lib/operations/fleet";
import { predictMileageOperation } from "@/lib/operations/leasing-mileage";
import { getResidualValueOperation } from "@/lib/operations/leasing-residual";
import { predictResidualValueOperation } from "@/lib/operations/leasing-residual-model";
import { generateCsrdReportOperation, getEmissionsReportOperation } from "@/lib/operations/reports";
import {
  getBatterySnapshotOperation,
  getEolSummaryOperation,
  getFleetRiskOperation,
  getGreenFleetOperation,
  getTasOperation,
  getVehicleHealthOperation,
  scoresBatchOperation,
  tasBatchOperation,
} from "@/lib/operations/scores";

/**
 * Which operations of the registry are MCP tools, and under which name. Everything else about a tool
 * (its input and output schemas, its scope, its description, the verb it runs) comes from the
 * operation: nothing here restates a path, a scope or a field.
 *
 * Left out on purpose: the OEM ingest (a bulk write with signatures, not an agent's job), the
 * certificate PDF (binary; `generate_certificate` already returns it as `pdf_base64`) and the pricing
 * calculators (finance tools, not fleet data: not partner-safe fleet capabilities).
 */
export interface ToolEntry {
  /** The tool's name: the eight of SPEC 4.6 first, then one per remaining partner-safe operation. */
  name: string;
  /** A short title for clients that show one. */
  title: string;
  operation: Operation;
  /**
   * Inputs the tool fixes (and does not offer): the JSON answer of an operation that can also answer a
   * file (CSV, PDF). A tool result is JSON; the files stay on REST.
   */
  fixed?: Record<string, string>;
  /** The tool changes state (issues something); every other tool only reads. */
  writes?: true;
}

export const TOOL_CATALOGUE = [
  // SPEC 4.6, in its order.
  { name: "get_tas_score", title: "Total Asset Score of a vehicle", operation: getTasOperation },
  { name: "get_battery_health", title: "Battery health snapshot of a vehicle", operation: getBatterySnapshotOperation },
  { name: "get_fleet_risk", title: "Fleet risk score over a period", operation: getFleetRiskOperation },
  { name: "predict_mileage", title: "Odometer forecast to the lease end", operation: predictMileageOperation },
  { name: "predict_residual_value", title: "Model-based residual value of a vehicle", operation: predictResidualValueOperation },
  { name: "generate_certificate", title: "Issue a vehicle health certificate", operation: generateCertificateOperation, writes: true },
  { name: "get_emissions_report", title: "Fleet CO₂e emissions over a date range", operation: getEmissionsReportOperation, fixed: { format: "json" } },
  { name: "get_charging_recommendation", title: "Cheapest charging window for an EV", operation: getChargingRecommendationOperation },
  // The remaining partner-safe operations.
  { name: "list_fleet", title: "Fleet snapshot: latest state of each vehicle", operation: listFleetOperation },
  { name: "list_alerts", title: "Alerts raised by the detectors", operation: listAlertsOperation },
  { name: "get_vehicle_health", title: "Vehicle health score", operation: getVehicleHealthOperation },
  { name: "get_green_fleet", title: "Green fleet score over a period", operation: getGreenFleetOperation },
  { name: "get_eol_summary", title: "End-of-life summary and condition grade", operation: getEolSummaryOperation },
  { name: "get_residual_value", title: "Rule-based residual value estimate", operation: getResidualValueOperation },
  { name: "score_devices_batch", title: "Scores for up to 100 vehicles", operation: scoresBatchOperation },
  { name: "get_tas_batch", title: "Total Asset Score for up to 1000 vehicles", operation: tasBatchOperation },
  { name: "get_certificate", title: "A stored certificate by number", operation: getCertificateOperation },
  { name: "verify_certificate", title: "Verify a certificate: valid, expired or revoked", operation: verifyCertificateOperation },
  { name: "generate_csrd_report", title: "CSRD (ESRS E1) climate figures of the fleet", operation: generateCsrdReportOperation, fixed: { format: "json" } },
  { name: "get_spot_prices", title: "Finnish day-ahead electricity prices", operation: getSpotPricesOperation },
] as const satisfies readonly ToolEntry[];

export type ToolName = (typeof TOOL_CATALOGUE)[number]["name"];
export const TOOL_NAMES: readonly ToolName[] = TOOL_CATALOGUE.map((t) => t.name);

export function toolEntry(name: string): ToolEntry | undefined {
  return (TOOL_CATALOGUE as readonly ToolEntry[]).find((t) => t.name === name);
}
