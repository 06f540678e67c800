import { z } from "zod";
import { SCOPES, generateLiveKey, type Scope } from "@/lib/auth/key-format";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { assertTenantExists } from "@/lib/tenants/assert-tenant-exists";
import { parseInput } from "@/lib/validation";

const KNOWN_SCOPES: readonly string[] = SCOPES;

export const createApiKeyInput = z.object({
  tenantId: z.string({ message: "The tenant id is required." }).trim().min(1, { message: "The tenant id is required." }),
  name: z.string().trim().min(1, { message: "The key name must not be empty." }).max(100, { message: "The key name is at most 100 characters." }).optional(),
  /** Defaults to every scope (CONTRACT: a key created without --scopes has all). */
  scopes: z
    .array(z.string({ message: "A scope is a string." }))
    .min(1, { message: `Give at least one scope (known scopes: ${SCOPES.join(", ")}).` })
    .superRefine((list, ctx) => {
      const unknown = [...new Set(list.filter((s) => !KNOWN_SCOPES.includes(s)))];
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `Unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.map((s) => JSON.stringify(s)).join(", ")}; known scopes: ${SCOPES.join(", ")}.`,
        });
      }
    })
    .transform((list) => [...new Set(list)] as Scope[])
    .optional(),
});
type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

interface CreateApiKeyResult {
  /** The full key: shown once, never stored. */
  key: string;
  keyId: string;
  tenantId: string;
}

/** Issues a live key for a tenant; only its SHA-256 and a short display prefix are stored. */
export async function createApiKey({ ctx, input }: { ctx: { db: Db }; input: CreateApiKeyInput }): Promise<CreateApiKeyResult> {
  const data = parseInput(createApiKeyInput, input);
  await assertTenantExists(ctx.db, data.tenantId);
  const { key, hash, prefix } = generateLiveKey();
  const keyId = newId("key");
  await ctx.db.insert(apiKeys).values({
    id: keyId,
    tenantId: data.tenantId,
    name: data.name ?? null,
    keyHash: hash,
    displayPrefix: prefix,
    scopes: data.scopes ?? [...SCOPES],
  });
  return { key, keyId, tenantId: data.tenantId };
}
