/**
 * The CSRD reporting role of a tenant (CONTRACT "Evidence and trust": `reporting_role`): in which
 * capacity the account discloses its fleet's emissions, which decides where a vehicle's emissions land
 * in the CSRD report (endpoint 13). Methodology: docs/methodology/csrd.md ("Reporting role").
 *
 * - `operator` (default): the account operates the fleet (operational control): the fuel is Scope 1,
 *   the charging electricity Scope 2, and Scope 3 category 13 is not reported.
 * - `lessor`: the account owns the vehicles and leases them out; for the days a vehicle's lease covers,
 *   its emissions are the lessees' and land in Scope 3 category 13 (downstream leased assets), not in
 *   Scope 1 or 2; outside the lease the lessor operates the vehicle (Scope 1/2).
 *
 * No imports: the drizzle schema (loaded by drizzle-kit without the `@/` alias) depends on this file.
 */

export const REPORTING_ROLES = ["operator", "lessor"] as const;
export type ReportingRole = (typeof REPORTING_ROLES)[number];

export const DEFAULT_REPORTING_ROLE: ReportingRole = "operator";

export function isReportingRole(x: unknown): x is ReportingRole {
  return typeof x === "string" && (REPORTING_ROLES as readonly string[]).includes(x);
}

/** One sentence per role, for schema descriptions and the CLI usage. */
export const REPORTING_ROLE_DESCRIPTION =
  "`operator` (default: the fleet's fuel is Scope 1, its charging electricity Scope 2, category 13 not reported) or `lessor` (for the days a vehicle's lease covers, its emissions are Scope 3 category 13, not Scope 1 or 2)";
