import { eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { tenants } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";

interface IngestSettings {
  requireSignedIngest: boolean;
  /** The sandbox's secret is public and reset by its seed: the dashboard does not rotate or switch it. */
  managedBySandbox: boolean;
}

/** What the keys page shows about signed ingest, without the secret itself (that takes a recorded reveal). */
export async function getIngestSettings({ ctx }: { ctx: Pick<TenantCtx, "db" | "tenantId" | "isSandbox"> }): Promise<IngestSettings> {
  const [row] = await ctx.db.select({ required: tenants.requireSignedIngest }).from(tenants).where(eq(tenants.id, ctx.tenantId));
  if (!row) throw new NotFoundError(`No tenant with id ${ctx.tenantId}.`);
  return { requireSignedIngest: row.required, managedBySandbox: ctx.isSandbox };
}
