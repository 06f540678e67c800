import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { entitlementsSchema, rateLimitPerMinSchema } from "./entitlements";
import { parseInput } from "@/lib/validation";
import { reportingRoleSchema } from "./entitlements";

export const updateTenantInput = z.object({
  tenantId: z.string({ message: "The tenant id is required." }).trim().min(1, { message: "The tenant id is required." }),
  /** Replaces the whole list; `[]` removes every entitlement. */
  entitlements: entitlementsSchema.optional(),
  /** null restores the service default (RATE_LIMIT_API_PER_MIN). */
  rateLimitPerMin: rateLimitPerMinSchema.nullable().optional(),
  /**
   * false: signatures optional; true: any signature form required; "timestamped": only the timestamped
   * header (`X-FDP-Signature: t=…,sha256=…`), so captured requests cannot be replayed after 300 s.
   */
  requireSignedIngest: z.union([z.boolean(), z.literal("timestamped")], { message: 'requireSignedIngest is true, false or "timestamped".' }).optional(),
  /**
   * The electricity supply contract's emission factor, g CO2e/kWh (CSRD market-based Scope 2); null
   * removes it. 0 is allowed (a certified renewable contract); 2000 is above any fossil generation
   * (lignite is about 1,100 g/kWh), so a larger figure is a unit mistake (kg or t entered as g).
   */
  electricityContractGPerKwh: z
    .number({ message: "electricityContractGPerKwh is a number of g CO2e/kWh." })
    .min(0, { message: "electricityContractGPerKwh must be at least 0 g CO2e/kWh." })
    .max(2000, { message: "electricityContractGPerKwh must be at most 2000 g CO2e/kWh." })
    .nullable()
    .optional(),
  /** The CSRD reporting role (lib/vocabulary/reporting-role.ts): where the fleet's emissions land in the CSRD report. */
  reportingRole: reportingRoleSchema.optional(),
});
type UpdateTenantInput = z.input<typeof updateTenantInput>;

/**
 * Changes a tenant's entitlements, rate limit, signed-ingest rule, electricity contract factor or CSRD reporting role. The API reads tenants through a
 * short cache (AUTH_CACHE_TTL_SECONDS ≤ 5 s), so a change is in effect within 5 seconds.
 */
export async function updateTenant({ ctx, input }: { ctx: { db: Db }; input: UpdateTenantInput }): Promise<{ tenantId: string; updated: true }> {
  const data = parseInput(updateTenantInput, input);
  const changes: Partial<typeof tenants.$inferInsert> = {};
  if (data.entitlements !== undefined) changes.entitlements = data.entitlements;
  if (data.rateLimitPerMin !== undefined) changes.rateLimitPerMin = data.rateLimitPerMin;
  if (data.requireSignedIngest !== undefined) {
    changes.requireSignedIngest = data.requireSignedIngest !== false;
    changes.requireTimestampedSignature = data.requireSignedIngest === "timestamped";
  }
  if (data.electricityContractGPerKwh !== undefined) changes.electricityContractGPerKwh = data.electricityContractGPerKwh;
  if (data.reportingRole !== undefined) changes.reportingRole = data.reportingRole;
  if (Object.keys(changes).length === 0) {
    throw new ValidationError("Nothing to update: give at least one of entitlements, rateLimitPerMin, requireSignedIngest, electricityContractGPerKwh or reportingRole.", [
      { field: "(root)", message: "Give at least one of entitlements, rateLimitPerMin, requireSignedIngest, electricityContractGPerKwh or reportingRole." },
    ]);
  }
  const updated = await ctx.db.update(tenants).set(changes).where(eq(tenants.id, data.tenantId)).returning({ id: tenants.id });
  if (updated.length === 0) throw new NotFoundError(`No tenant with id ${data.tenantId}.`);
  return { tenantId: data.tenantId, updated: true };
}
