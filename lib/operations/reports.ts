import { getEmissionsReport } from "@/lib/reports/get-emissions-report";
import { emissionsQuerySchema, emissionsReportSchema } from "@/lib/schemas/reports-emissions";
import { defineOperation } from "./define-operation";

/** Endpoint 8. One operation, two media types: JSON (the `output` schema) or, with `format=csv`, CSV. */
export const getEmissionsReportOperation = defineOperation({
  id: "getEmissionsReport",
  method: "GET",
  path: "/reports/emissions",
  access: { scope: "reports:read" },
  tag: "Reports",
  summary: "Fleet CO₂e emissions over a date range, per vehicle, as JSON or CSV",
  description:
    "Per vehicle: distance (odometer delta, else great-circle sum of positions), electricity or fuel (telemetry where reported, else documented consumption factors) and CO₂e from the versioned factor registry (DESNZ 2025 tank-to-wheel + well-to-tank; Finnish grid, location-based, charger losses included). `format=csv` answers `text/csv; charset=utf-8`: a header, one row per vehicle of the tenant (zeros where it did not move), a final `TOTAL` row. Dates: YYYY-MM-DD, end inclusive, at most 366 days counting both ends, end not after today (UTC). Method and factor table: docs/methodology/emissions.md.",
  input: { query: emissionsQuerySchema },
  output: emissionsReportSchema,
  alsoProduces: { mediaType: "text/csv; charset=utf-8", selectedBy: "With `format=csv`: header row, one row per vehicle, a final TOTAL row (RFC 4180 quoting)." },
  // A fixed past month: valid whenever the tests run (never after today, 31 days). The sandbox's
  // history is anchored at the current hour, so it may not cover it: the answer is then a valid
  // report of the whole fleet with zero distance.
  requestExample: { query: { start_date: "2026-01-01", end_date: "2026-01-31", format: "json" } },
  verb: getEmissionsReport,
});
