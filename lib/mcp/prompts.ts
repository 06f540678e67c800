import { McpError, ErrorCode, type GetPromptResult, type Prompt } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { reportRange } from "@/lib/reports/report-range";
import { deviceId } from "@/lib/schemas/common";
import { mileageForecastQuerySchema } from "@/lib/schemas/leasing-mileage";
import { reportPeriodQueryFields } from "@/lib/schemas/reports-emissions";
import { zodDetails } from "@/lib/validation";
import { methodologyUriOf } from "./methodology-resources";
import type { ToolName } from "./tool-catalogue";

/**
 * Two prompts that chain the tools for the questions partners ask most: is this car fit to be taken
 * back at the lease end, and what does the fleet disclose under CSRD for a period. Each names the tools
 * to call in order and what to check in their answers, so an agent does not have to discover the
 * chain, and tells it to quote FDP's figures with their caveats rather than invent its own.
 */

/** Tool names as typed constants: renaming a tool breaks these prompts at compile time. */
const T = (name: ToolName) => `\`${name}\``;

// The arguments are checked by the parsers of the tools the prompt chains, so a prompt never renders a
// value its tools would refuse (a contract of 0 km, 30 February).
const { contract_km: contractKm, lease_months: leaseMonths } = mileageForecastQuerySchema.shape;
const { start_date: startDate, end_date: endDate } = reportPeriodQueryFields;

const PROMPTS = {
  assess_vehicle_for_lease_return: {
    title: "Assess this vehicle for lease return",
    description:
      "Walks an agent through FDP's figures for one vehicle at its lease return: condition (TAS, EOL grade, knockouts), battery, mileage against the contract, residual value, open alerts; ends with a recommendation and, on request, a certificate.",
    arguments: [
      { name: "device_id", description: "The vehicle's device id, e.g. sbx-001.", required: true },
      { name: "contract_km", description: "Contract mileage limit in km, if it differs from the vehicle's master data.", required: false },
      { name: "lease_months", description: "Lease length in months, if it differs from the vehicle's master data.", required: false },
    ],
    schema: z.object({ device_id: deviceId(), contract_km: contractKm, lease_months: leaseMonths }),
    render: (a: { device_id: string; contract_km?: number; lease_months?: number }) => {
      const lease = [a.contract_km !== undefined ? `contract_km=${a.contract_km}` : "", a.lease_months !== undefined ? `lease_months=${a.lease_months}` : ""]
        .filter(Boolean)
        .join(", ");
      return [
        `Assess vehicle ${a.device_id} for its lease return, using FDP's tools and only their figures.`,
        "",
        "1. " + T("get_tas_score") + ` for ${a.device_id}: the grade, the pillars, any knockout (a knockout forces grade F), and how old the data is.`,
        "2. " + T("get_eol_summary") + " and " + T("get_vehicle_health") + ": condition grade A–F, its reasons and the health components.",
        "3. " + T("get_battery_health") + " (electric and hybrid vehicles): state of health, its trend and what could not be known.",
        "4. " + T("predict_mileage") + (lease ? ` with ${lease}` : "") + ": predicted odometer at the lease end, the 80 % interval, the overage in km and the overrun risk.",
        "5. " + T("predict_residual_value") + " and " + T("get_residual_value") + ": the model-based and the rule-based estimate; say where they differ and why.",
        "6. " + T("list_alerts") + " (unacknowledged, then all severities): open alerts that bear on the return, and whether any is a knockout's evidence.",
        "",
        "Then write a short assessment: fit for return as is / with deductions / not without inspection, the figures it rests on (with units and each answer's confidence or data-quality caveats), and what is unknown. Do not invent numbers FDP did not give.",
        `If the user asks for it, issue a certificate with ${T("generate_certificate")} (it creates a new signed certificate each time) and give its verify URL.`,
        `How the figures are computed: ${methodologyUriOf("tas")}, ${methodologyUriOf("eol-summary")}, ${methodologyUriOf("mileage-forecast")}, ${methodologyUriOf("residual-value-model")}.`,
      ].join("\n");
    },
  },
  fleet_csrd_summary: {
    title: "Fleet CSRD summary for a period",
    description:
      "Walks an agent through the fleet's climate figures for a period: the CSRD (ESRS E1) report, the emissions per vehicle behind it, and the green fleet score; ends with a disclosure-ready summary and its caveats.",
    arguments: [
      { name: "start_date", description: "First day of the period, YYYY-MM-DD (UTC).", required: true },
      { name: "end_date", description: "Last day of the period, YYYY-MM-DD (UTC, inclusive; at most 366 days, not after today).", required: true },
    ],
    // The reports' cross-field rule too (start ≤ end, at most 366 days, not after today).
    schema: z.object({ start_date: startDate, end_date: endDate }).superRefine((period, ctx) => {
      try {
        reportRange(period, new Date());
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        for (const d of err.details ?? []) ctx.addIssue({ code: "custom", path: [d.field], message: d.message });
      }
    }),
    render: (a: { start_date: string; end_date: string }) =>
      [
        `Summarise the fleet's climate disclosure for ${a.start_date} to ${a.end_date}, using FDP's tools and only their figures.`,
        "",
        "1. " +
          T("generate_csrd_report") +
          ` with start_date=${a.start_date}, end_date=${a.end_date}: gross Scope 1, Scope 2 (location-based and, if configured, market-based), Scope 3 category 3 and, for a lessor, category 13 in tCO₂e with their ESRS E1 datapoints (reporting_role and consolidation_basis say which role the account reports in), E1-5 energy in MWh, EV share and its trend, data quality.`,
        "2. " + T("get_emissions_report") + " for the same dates: the vehicles that emit most, and the share of distance estimated rather than measured.",
        "3. " + T("get_green_fleet") + " for a matching period (`<N>d`): the score and its components.",
        "",
        "Then write the summary a sustainability lead can paste into a draft: the totals by scope with units and datapoints, the energy mix, the EV share, the three largest emitters, and every caveat the answers carry (the reporting role, estimates and unverified factors, missing data, the location-based electricity split). Do not round away differences and do not invent figures.",
        `Method: ${methodologyUriOf("csrd")} and ${methodologyUriOf("emissions")}.`,
      ].join("\n"),
  },
} as const;

type PromptName = keyof typeof PROMPTS;

export function promptDefinitions(): Prompt[] {
  return Object.entries(PROMPTS).map(([name, p]) => ({ name, title: p.title, description: p.description, arguments: [...p.arguments] }));
}

/** The prompt's messages; unknown names and invalid arguments are the protocol's invalid-params error. */
export function getPrompt(params: unknown): GetPromptResult {
  const { name, arguments: args } = (params !== null && typeof params === "object" ? params : {}) as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") {
    throw new McpError(ErrorCode.InvalidParams, `prompts/get needs \`params.name\`, a string: one of ${Object.keys(PROMPTS).join(", ")}.`);
  }
  if (!Object.hasOwn(PROMPTS, name)) {
    throw new McpError(ErrorCode.InvalidParams, `No prompt named ${name.slice(0, 100)}. The prompts are: ${Object.keys(PROMPTS).join(", ")}.`);
  }
  const prompt = PROMPTS[name as PromptName];
  const parsed = prompt.schema.safeParse(args ?? {});
  if (!parsed.success) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid arguments for ${name}: ${zodDetails(parsed.error)
        .map((d) => `${d.field} ${d.message}`)
        .join("; ")}.`,
    );
  }
  const text = (prompt.render as (a: unknown) => string)(parsed.data);
  return { description: prompt.description, messages: [{ role: "user", content: { type: "text", text } }] };
}
