import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { newId, randomBase62 } from "@/lib/ids";
import { DEFAULT_REPORTING_ROLE } from "@/lib/vocabulary/reporting-role";
import { entitlementsSchema, rateLimitPerMinSchema, reportingRoleSchema } from "./entitlements";
import { parseInput } from "@/lib/validation";

const INGEST_SECRET_PREFIX = "whsec_";
const INGEST_SECRET_LENGTH = 40;

/** A fresh ingest secret: `whsec_` and 40 random base62 characters (about 238 bits). */
export function newIngestSecret(): string {
  return INGEST_SECRET_PREFIX + randomBase62(INGEST_SECRET_LENGTH);
}

export const createTenantInput = z.object({
  name: z
    .string({ message: "The tenant name is required." })
    .trim()
    .min(1, { message: "The tenant name must not be empty." })
    .max(200, { message: "The tenant name is at most 200 characters." }),
  entitlements: entitlementsSchema.optional(),
  rateLimitPerMin: rateLimitPerMinSchema.optional(),
  /** The CSRD reporting role; `operator` when not given. */
  reportingRole: reportingRoleSchema.optional(),
});
type CreateTenantInput = z.input<typeof createTenantInput>;

interface CreateTenantResult {
  tenantId: string;
  /** HMAC key for signed ingest; the tenant needs it in clear, so it is stored as is. */
  ingestSecret: string;
}

/** Creates a tenant with a fresh id and ingest secret (operator verb: no tenant context). */
export async function createTenant({ ctx, input }: { ctx: { db: Db }; input: CreateTenantInput }): Promise<CreateTenantResult> {
  const data = parseInput(createTenantInput, input);
  const tenantId = newId("tn");
  const ingestSecret = newIngestSecret();
  await ctx.db.insert(tenants).values({
    id: tenantId,
    name: data.name,
    entitlements: data.entitlements ?? [],
    rateLimitPerMin: data.rateLimitPerMin ?? null,
    reportingRole: data.reportingRole ?? DEFAULT_REPORTING_ROLE,
    ingestSecret,
  });
  return { tenantId, ingestSecret };
}
