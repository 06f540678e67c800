import { desc, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { apiKeys } from "@/lib/db/schema";

export interface ApiKeyListRow {
  id: string;
  name: string | null;
  /** `fdp_live_` and the first 4 secret characters: enough to tell keys apart, useless to call with. */
  displayPrefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  status: "active" | "revoked";
}

/** The tenant's API keys, newest first (never the hash). One query. */
export async function listApiKeys({ ctx }: { ctx: Pick<TenantCtx, "db" | "tenantId"> }): Promise<ApiKeyListRow[]> {
  const rows = await ctx.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      displayPrefix: apiKeys.displayPrefix,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, ctx.tenantId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({ ...r, status: r.revokedAt === null ? "active" : "revoked" }));
}
