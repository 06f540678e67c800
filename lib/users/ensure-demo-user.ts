import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation";
import { BCRYPT_COST, newPasswordSchema } from "./password-policy";

/** CONTRACT "Dashboard": the sandbox tenant's demo user. */
export const DEMO_USER_EMAIL = "demo@fdp.example";
export const DEFAULT_DEMO_PASSWORD = "sandbox-demo-2026";

type DemoUserOutcome = "created" | "password_updated" | "unchanged" | "email_taken";

/**
 * Makes sure the demo user exists in the sandbox tenant with `password` (FDP_DEMO_PASSWORD): created on
 * the first start, its hash replaced when the configured password changed, untouched otherwise (one
 * read and one bcrypt comparison per start). Run after the sandbox seed, which creates the tenant.
 * Should the address belong to a user of another tenant, that user is left alone (`email_taken`).
 */
export async function ensureDemoUser({ ctx, input }: { ctx: { db: Db }; input: { password: string } }): Promise<DemoUserOutcome> {
  const password = parseInput(newPasswordSchema, input.password);
  const [existing] = await ctx.db.select({ id: users.id, tenantId: users.tenantId, passwordHash: users.passwordHash }).from(users).where(eq(users.email, DEMO_USER_EMAIL)).limit(1);
  if (existing && existing.tenantId !== SANDBOX_TENANT_ID) return "email_taken";
  if (existing) {
    if (await bcrypt.compare(password, existing.passwordHash)) return "unchanged";
    await ctx.db
      .update(users)
      .set({ passwordHash: await bcrypt.hash(password, BCRYPT_COST) })
      .where(eq(users.id, existing.id));
    return "password_updated";
  }
  const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
  // A concurrent start (another instance on the same database) may have inserted it meanwhile.
  const inserted = await ctx.db
    .insert(users)
    .values({ id: newId("usr"), tenantId: SANDBOX_TENANT_ID, email: DEMO_USER_EMAIL, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  return inserted.length > 0 ? "created" : "unchanged";
}
