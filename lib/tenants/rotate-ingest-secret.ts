import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { newIngestSecret } from "./create-tenant";

const rotateIngestSecretInput = z.object({
  tenantId: z.string({ message: "The tenant id is required." }).trim().min(1, { message: "The tenant id is required." }),
});
type RotateIngestSecretInput = z.input<typeof rotateIngestSecretInput>;

/**
 * Replaces a tenant's ingest secret with a fresh random one (the same generator as tenant:create).
 * Ingest reads the secret from the tenants row on every request, so the old secret stops verifying
 * at once; the caller shows the new secret to whoever must reconfigure the OEM side.
 */
export async function rotateIngestSecret({ ctx, input }: { ctx: { db: Db }; input: RotateIngestSecretInput }): Promise<{ tenantId: string; ingestSecret: string }> {
  const data = parseInput(rotateIngestSecretInput, input);
  const ingestSecret = newIngestSecret();
  const updated = await ctx.db.update(tenants).set({ ingestSecret }).where(eq(tenants.id, data.tenantId)).returning({ id: tenants.id });
  if (updated.length === 0) throw new NotFoundError(`No tenant with id ${data.tenantId}.`);
  return { tenantId: data.tenantId, ingestSecret };
}
