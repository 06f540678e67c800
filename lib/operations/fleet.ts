import { listAlerts } from "@/lib/alerts/list-alerts";
import { listFleet } from "@/lib/fleet/list-fleet";
import { alertListSchema, alertsQuerySchema } from "@/lib/schemas/alerts";
import { fleetListSchema, fleetQuerySchema } from "@/lib/schemas/fleet";
import { defineOperation } from "./define-operation";

/** Endpoint 1. */
export const listFleetOperation = defineOperation({
  id: "listFleet",
  method: "GET",
  path: "/fleet",
  access: { scope: "fleet:read" },
  reads: "replica",
  tag: "Fleet",
  summary: "Fleet snapshot: the latest state of each vehicle",
  description: "One record per vehicle with a known state, ordered by `device_id`. `status` is `offline` when the latest state is older than 24 h.",
  input: { query: fleetQuerySchema },
  output: fleetListSchema,
  requestExample: { query: { limit: "2" } },
  verb: listFleet,
});

/** Endpoint 2. */
export const listAlertsOperation = defineOperation({
  id: "listAlerts",
  method: "GET",
  path: "/alerts",
  access: { scope: "fleet:read" },
  reads: "replica",
  tag: "Fleet",
  summary: "Alerts raised by the detectors, newest first",
  description: "Alerts of the detectors (`battery`, `diagnostics`, `driving`, `odometer_integrity`, `charging`), filtered by severity and acknowledgement.",
  input: { query: alertsQuerySchema },
  output: alertListSchema,
  requestExample: { query: { limit: "2", severity: "WARNING" } },
  verb: listAlerts,
});
