import type { Operation } from "./define-operation";
import { generateCertificateOperation, getCertificateOperation, getCertificatePdfOperation, verifyCertificateOperation } from "./certificates";
import { getChargingRecommendationOperation } from "./charging";
import { getSpotPricesOperation } from "./energy";
import { listAlertsOperation, listFleetOperation } from "./fleet";
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

/**
 * Every operation of the FDP API (paths relative to `/api/v1`). Route files bind these by path
 * (lib/http/bind-route.ts), the OpenAPI document loops over them, and so do the shared security and
 * fuzz tests; tests/unit/operations/registry.test.ts fails if a route file exists outside this list.
 */
export const OPERATIONS: readonly Operation[] = [
  listFleetOperation,
  listAlertsOperation,
  getFleetRiskOperation,
  getVehicleHealthOperation,
  getGreenFleetOperation,
  getBatterySnapshotOperation,
  getEolSummaryOperation,
  scoresBatchOperation,
  ingestOperation,
  getTasOperation,
  tasBatchOperation,
  getResidualValueOperation,
  predictResidualValueOperation,
  predictMileageOperation,
  // Before the `/certificates/{certificate_number}/…` routes: at equal parameter count the first match
  // wins (methodsServedAt), and Next.js serves the static `generate` segment first too.
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
];

/**
 * Routes under `/api` that are not API operations: they need no key, are not rate limited and are not
 * in the OpenAPI `paths` (health lives outside `/api/v1`; the document does not describe itself).
 * `/api/[...path]` is the JSON 404 for every other path. `/api/auth/*` is next-auth's (the dashboard's
 * sign-in, lib/dashboard/auth-route.ts): its answers are next-auth's, wrapped in the CONTRACT's request
 * id and error envelope. `/api/mcp` is the MCP server (lib/mcp/bind-mcp-route.ts): keyed and rate
 * limited like an operation, but one endpoint for every tool, each tool being an operation above.
 */
export const SERVICE_ROUTES = {
  health: { route: "/api/health", methods: ["GET"] },
  healthLive: { route: "/api/health/live", methods: ["GET"] },
  openapi: { route: "/api/v1/openapi.json", methods: ["GET"] },
  notFound: { route: "/api/[...path]", methods: [] },
  auth: { route: "/api/auth/[...nextauth]", methods: ["GET", "POST"] },
  mcp: { route: "/api/mcp", methods: ["POST"] },
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

interface RouteEntry {
  pattern: RegExp;
  /** Path parameters in the template: a static path wins over a parameterised one (as in Next.js). */
  params: number;
  methods: string[];
}

const ROUTE_TABLE: RouteEntry[] = (() => {
  const byTemplate = new Map<string, string[]>();
  for (const op of OPERATIONS) byTemplate.set(`/api/v1${op.path}`, [...(byTemplate.get(`/api/v1${op.path}`) ?? []), op.method]);
  for (const { route, methods } of Object.values(SERVICE_ROUTES)) if (methods.length > 0) byTemplate.set(route, [...methods]);
  return [...byTemplate.entries()]
    .map(([template, methods]) => ({
      pattern: new RegExp(
        `^${template
          .replace(/\[\.\.\.[a-z]+\]$/, "\0")
          .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
          .replace(/\{[a-z_]+\}/g, "[^/]+")
          .replace("\0", ".+")}$`,
      ),
      // A catch-all (`[...x]`, only service routes have one) loses to every other template.
      params: (template.match(/\{/g) ?? []).length + (template.includes("[...") ? 100 : 0),
      methods,
    }))
    .sort((a, b) => a.params - b.params);
})();

/**
 * The methods served at a concrete request path (`/api/v1/tas/sbx-001` → GET), or null when no route
 * serves it. For answers given before Next.js routing (lib/http/edge-guard.ts): 405 `Allow`, OPTIONS.
 */
export function methodsServedAt(pathname: string): string[] | null {
  return ROUTE_TABLE.find((r) => r.pattern.test(pathname))?.methods ?? null;
}
