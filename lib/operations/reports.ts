import { generateCsrdReport } from "@/lib/reports/generate-csrd-report";
import { getEmissionsReport } from "@/lib/reports/get-emissions-report";
import { csrdQuerySchema, csrdReportSchema } from "@/lib/schemas/reports-csrd";
import { emissionsQuerySchema, emissionsReportSchema, MAX_REPORT_DAYS } from "@/lib/schemas/reports-emissions";
import { defineOperation } from "./define-operation";

/** Endpoint 8. One operation, two media types: JSON (the `output` schema) or, with `format=csv`, CSV. */
export const getEmissionsReportOperation = defineOperation({
  id: "getEmissionsReport",
  method: "GET",
  path: "/reports/emissions",
  access: { scope: "reports:read" },
  cost: "heavy",
  reads: "replica",
  tag: "Reports",
  summary: "Fleet CO₂e emissions over a date range, per vehicle, as JSON or CSV",
  description: `Per vehicle: distance (odometer delta, else great-circle sum of positions), electricity or fuel (telemetry where reported, else documented consumption factors) and CO₂e from the versioned factor registry (DESNZ 2025 tank-to-wheel + well-to-tank; Finnish grid, location-based, charger losses included). \`format=csv\` answers \`text/csv; charset=utf-8\`: a header, one row per vehicle of the tenant (zeros where it did not move), a final \`TOTAL\` row. Dates: YYYY-MM-DD, end inclusive, at most ${MAX_REPORT_DAYS} days counting both ends, end not after today (UTC). Method and factor table: docs/methodology/emissions.md.`,
  input: { query: emissionsQuerySchema },
  output: emissionsReportSchema,
  alsoProduces: { mediaType: "text/csv; charset=utf-8", selectedBy: "With `format=csv`: header row, one row per vehicle, a final TOTAL row (RFC 4180 quoting)." },
  // A fixed past month: valid whenever the tests run (never after today, 31 days). The sandbox's
  // history is anchored at the current hour, so it may not cover it: the answer is then a valid
  // report of the whole fleet with zero distance.
  requestExample: { query: { start_date: "2026-01-01", end_date: "2026-01-31", format: "json" } },
  verb: getEmissionsReport,
});

/**
 * Endpoint 13. PDF by default (`format=pdf`), the same report as JSON (SPEC 2.11) with `format=json`:
 * `output` is the JSON schema, `alsoProduces` declares the PDF (the binding marks it `X-Sandbox: true`
 * for the sandbox key, like any non-JSON answer).
 */
export const generateCsrdReportOperation = defineOperation({
  id: "generateCsrdReport",
  method: "POST",
  path: "/reports/csrd/generate",
  access: { scope: "reports:read" },
  cost: "heavy",
  reads: "replica",
  tag: "Reports",
  summary: "ESRS E1-style climate disclosure of the fleet over a date range, as PDF (default) or JSON",
  description:
    "Built from the emissions report of the same dates and the green fleet score of the same window: gross Scope 1 (fuel, tank-to-wheel), Scope 2 location-based (BEV charging × Finnish grid factor) and market-based (where an electricity contract factor is configured), Scope 3 category 3 (well-to-tank) and the category 13 lessor view (pro rata to the lease days), in tCO₂e, each labelled with its ESRS E1 datapoint (Delegated Regulation (EU) 2023/2772); E1-5 energy by source in MWh (electricity split by the location-based generation mix: an estimate); EV share and its monthly trend; data quality and method notes. The location-based total equals the emissions report's `total_co2_kg_estimate` ÷ 1000. `format=pdf` (default) answers `application/pdf` (tables per section and a chart) as an attachment `csrd-<start>-<end>.pdf`. No body. Dates as the emissions report. Method: docs/methodology/csrd.md.",
  input: { query: csrdQuerySchema },
  output: csrdReportSchema,
  alsoProduces: { mediaType: "application/pdf", selectedBy: "The default (`format=pdf`, or no `format`): the report as an A4 PDF document with a table per section and a chart." },
  // JSON so that the OpenAPI example is the report itself; a fixed past month, valid whenever the tests run.
  requestExample: { query: { start_date: "2026-01-01", end_date: "2026-01-31", format: "json" } },
  verb: generateCsrdReport,
});
