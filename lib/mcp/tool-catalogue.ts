import type { z } from "zod";
import type { Operation } from "@/lib/operations/define-operation";
import { OPERATIONS, type OperationById, type OperationId } from "@/lib/operations/registry";

/**
 * Which operations of the registry are MCP tools, and under which name. Everything else about a tool
 * (its input and output schemas, its scope, its description, the verb it runs) comes from the
 * operation: nothing here restates a path, a scope or a field.
 *
 * The table is keyed by operation id and must name every operation of the registry (`satisfies
 * Record<OperationId, …>`): a new operation does not compile until it is a tool or says why it is not.
 * Tools are listed in the table's order.
 */
interface ToolSpec {
  /** The tool's name: the eight of SPEC 4.6 first, then one per remaining partner-safe operation. */
  name: string;
  /** A short title for clients that show one. */
  title: string;
  /**
   * Inputs the tool fixes (and does not offer): the JSON answer of an operation that can also answer a
   * file (CSV, PDF). A tool result is JSON; the files stay on REST.
   */
  fixed?: Readonly<Record<string, string>>;
  /** The tool changes state (issues something); every other tool only reads. */
  writes?: true;
}

/** An operation that is no tool, and why. */
interface NotATool {
  notATool: string;
}

const TOOLS = {
  // SPEC 4.6, in its order.
  getTotalAssetScore: { name: "get_tas_score", title: "Total Asset Score of a vehicle" },
  getBatteryHealthSnapshot: { name: "get_battery_health", title: "Battery health snapshot of a vehicle" },
  getFleetRiskScore: { name: "get_fleet_risk", title: "Fleet risk score over a period" },
  predictMileage: { name: "predict_mileage", title: "Odometer forecast to the lease end" },
  predictResidualValue: { name: "predict_residual_value", title: "Model-based residual value of a vehicle" },
  generateCertificate: { name: "generate_certificate", title: "Issue a vehicle health certificate", writes: true },
  getEmissionsReport: { name: "get_emissions_report", title: "Fleet CO₂e emissions over a date range", fixed: { format: "json" } },
  getChargingRecommendation: { name: "get_charging_recommendation", title: "Cheapest charging window for an EV" },
  // The remaining partner-safe operations.
  listFleet: { name: "list_fleet", title: "Fleet snapshot: latest state of each vehicle" },
  listAlerts: { name: "list_alerts", title: "Alerts raised by the detectors" },
  getVehicleHealthScore: { name: "get_vehicle_health", title: "Vehicle health score" },
  getGreenFleetScore: { name: "get_green_fleet", title: "Green fleet score over a period" },
  getEolSummary: { name: "get_eol_summary", title: "End-of-life summary and condition grade" },
  getResidualValue: { name: "get_residual_value", title: "Rule-based residual value estimate" },
  scoreDevicesBatch: { name: "score_devices_batch", title: "Scores for up to 100 vehicles" },
  getTotalAssetScoreBatch: { name: "get_tas_batch", title: "Total Asset Score for up to 1000 vehicles" },
  getCertificate: { name: "get_certificate", title: "A stored certificate by number" },
  verifyCertificate: { name: "verify_certificate", title: "Verify a certificate: valid, expired or revoked" },
  generateCsrdReport: { name: "generate_csrd_report", title: "CSRD (ESRS E1) climate figures of the fleet", fixed: { format: "json" } },
  getSpotPrices: { name: "get_spot_prices", title: "Finnish day-ahead electricity prices" },
  listEvents: { name: "list_events", title: "Changes feed: alerts, certificates and new vehicles in commit order" },
  // Not tools, on purpose.
  ingestOemTelemetry: { notATool: "the OEM ingest is a bulk write with signatures, not an agent's job" },
  ingestTraccarPositions: { notATool: "a feed's ingest is a bulk write by a tracking server, not an agent's job" },
  ingestTeslaTelemetry: { notATool: "a feed's ingest is a bulk write by a telemetry relay, not an agent's job" },
  getCertificatePdf: { notATool: "the certificate PDF is binary; generate_certificate already returns it as pdf_base64" },
  priceSecurityInvestment: { notATool: "a finance calculator, not fleet data: not a partner-safe fleet capability" },
  priceCarriedInterest: { notATool: "a finance calculator, not fleet data: not a partner-safe fleet capability" },
  listWebhooks: { notATool: "webhook administration stays with the people who run the integration (REST, dashboard); an agent reads the changes themselves (list_events)" },
  getWebhook: { notATool: "webhook administration stays with the people who run the integration (REST, dashboard); an agent reads the changes themselves (list_events)" },
  createWebhook: { notATool: "registers where FDP sends data: a person's decision in the dashboard or the API, never an agent's (read-only tools only)" },
  deleteWebhook: { notATool: "changes where FDP sends data: read-only tools only" },
  replayWebhook: { notATool: "re-sends data to a partner's system: read-only tools only" },
} as const satisfies Record<OperationId, ToolSpec | NotATool>;

type Tools = typeof TOOLS;
/** The ids of the operations that are tools. */
type ToolOperationId = { [I in OperationId]: Tools[I] extends ToolSpec ? I : never }[OperationId];

export type ToolName = Tools[ToolOperationId]["name"];
/** The operation a tool runs. */
type OperationOfTool<N extends ToolName> = { [I in ToolOperationId]: Tools[I]["name"] extends N ? I : never }[ToolOperationId];
/** A tool's JSON answer: its operation's validated output. */
export type ToolAnswer<N extends ToolName> = z.output<OperationById<OperationOfTool<N>>["output"]>;

export interface ToolEntry extends Omit<ToolSpec, "name"> {
  name: ToolName;
  operation: Operation;
}

const operationsById = new Map(OPERATIONS.map((op) => [op.id, op]));

export const TOOL_CATALOGUE: readonly ToolEntry[] = Object.entries(TOOLS as Record<OperationId, ToolSpec | NotATool>).flatMap(([id, spec]) =>
  // Every key is an operation id (the `satisfies` above).
  "notATool" in spec ? [] : [{ ...spec, name: spec.name as ToolName, operation: operationsById.get(id)! }],
);

export const TOOL_NAMES: readonly ToolName[] = TOOL_CATALOGUE.map((t) => t.name);

export function toolEntry(name: string): ToolEntry | undefined {
  return TOOL_CATALOGUE.find((t) => t.name === name);
}
