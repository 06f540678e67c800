import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";

/** Throws NotFoundError unless the tenant exists (used by verbs that attach something to a tenant). */
export async function assertTenantExists(db: Db, tenantId: string): Promise<void> {
  const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) throw new NotFoundError(`No tenant with id ${tenantId}.`);
}
