import type { Operation } from "./define-operation";
import { generateCertificateOperation, getCertificateOperation, getCertificatePdfOperation, verifyCertificateOperation } from "./certificates";
import { getChargingRecommendationOperation } from "./charging";
import { getSpotPricesOperation } from "./energy";
import { listAlertsOperation, listFleetOperation } from "./fleet";
import { ingestTeslaOperation, ingestTraccarOperation } from "./feeds";
import { ingestOperation } from "./ingest";
import { predictMileageOperation } from "./leasing-mileage";
import { getResidualValueOperation } from "./leasing-residual";
import { predictResidualValueOperation } from "./leasing-residual-model";
import { commissionOperation, gordonLoebOperation } from "./pricing";
import { generateCsrdReportOperation, getEmissionsReportOperation } from "./reports";
import {
  getBatterySnapshotOperation,
  getEolSummaryOperation,
  getFleetRiskOperation,
  getGreenFleetOperation,
  getTasOperation,
  getVehicleHealthOperation,
  scoresBatchOperation,
  tasBatchOperation,
} from "./scores";
import { createWebhookOperation, deleteWebhookOperation, getWebhookOperation, listEventsOperation, listWebhooksOperation, replayWebhookOperation } from "./webhooks";

/**
 * Every operation of the FDP API (paths relative to `/api/v1`), in the OpenAPI document's order. Route files
 * bind these by path (lib/http/bind-route.ts), the API's route matcher is derived from them
 * (lib/http/api-routes.ts), the OpenAPI document and the MCP catalogue loop over them, and so do the
 * shared security and fuzz tests; tests/unit/operations/registry.test.ts fails if a route file exists
 * outside this list.
 */
const DEFINED = [
  listFleetOperation,
  listAlertsOperation,
  getFleetRiskOperation,
  getVehicleHealthOperation,
  getGreenFleetOperation,
  getBatterySnapshotOperation,
  getEolSummaryOperation,
  scoresBatchOperation,
  ingestOperation,
  ingestTraccarOperation,
  ingestTeslaOperation,
  getTasOperation,
  tasBatchOperation,
  getResidualValueOperation,
  predictResidualValueOperation,
  predictMileageOperation,
  generateCertificateOperation,
  getCertificateOperation,
  getCertificatePdfOperation,
  verifyCertificateOperation,
  gordonLoebOperation,
  commissionOperation,
  getEmissionsReportOperation,
  generateCsrdReportOperation,
  getSpotPricesOperation,
  getChargingRecommendationOperation,
  createWebhookOperation,
  listWebhooksOperation,
  getWebhookOperation,
  replayWebhookOperation,
  deleteWebhookOperation,
  listEventsOperation,
] as const;
export const OPERATIONS = DEFINED as unknown as readonly Operation[];

/** Every operation's id: a table keyed by it (`satisfies Record<OperationId, …>`) misses none. */
export type OperationId = (typeof DEFINED)[number]["id"];
/** The definition of one operation, with its own input and output types. */
export type OperationById<I extends OperationId> = Extract<(typeof DEFINED)[number], { id: I }>;

/**
 * Routes under `/api` that are not API operations: they need no key, are not rate limited and are not
 * in the OpenAPI `paths` (health lives outside `/api/v1`; the document does not describe itself).
 * `/api/[...path]` is the JSON 404 for every other path. `/api/auth/*` is next-auth's (the dashboard's
 * sign-in, lib/dashboard/auth-route.ts): its answers are next-auth's, wrapped in the CONTRACT's request
 * id and error envelope. `/api/mcp` is the MCP server (lib/mcp/bind-mcp-route.ts): keyed and rate
 * limited like an operation, but one endpoint for every tool, each tool being an operation above.
 * `/api/metrics` is the Prometheus scrape (lib/metrics/serve-metrics.ts), behind its own token.
 */
export const SERVICE_ROUTES = {
  health: { route: "/api/health", methods: ["GET"] },
  healthLive: { route: "/api/health/live", methods: ["GET"] },
  openapi: { route: "/api/v1/openapi.json", methods: ["GET"] },
  notFound: { route: "/api/[...path]", methods: [] },
  auth: { route: "/api/auth/[...nextauth]", methods: ["GET", "POST"] },
  mcp: { route: "/api/mcp", methods: ["POST"] },
  metrics: { route: "/api/metrics", methods: ["GET"] },
} as const;
export type ServiceRouteName = keyof typeof SERVICE_ROUTES;

/** The operations served at one path template, e.g. `/tas/{device_id}` (several methods may share one). */
export function operationsAt(path: string): Operation[] {
  return OPERATIONS.filter((op) => op.path === path);
}

/** `/api/v1/tas/{device_id}` ↔ `/api/v1/tas/[device_id]`: the folder of a path template under app/. */
export function routeFolderOf(path: string): string {
  return `/api/v1${path.replace(/\{([a-z_]+)\}/g, "[$1]")}`;
}
