import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/**
 * What a dashboard session is bound to besides the user id: a digest of the user's stored password
 * hash. bcrypt salts every hash anew, so any password change (even to the same password) gives a new
 * fingerprint, and a deleted user has none: either ends every session signed in before (CONTRACT
 * "Reliability and hardening"). A digest rather than the hash itself, so the session cookie (an
 * encrypted JWT) never carries anything a password could be guessed against.
 */
export function credentialFingerprint(passwordHash: string): string {
  return createHash("sha256").update(`fdp-session:${passwordHash}`).digest("base64url").slice(0, 22);
}

/**
 * The user's tenant when the user still exists and its password is the one the session was signed in
 * with; null otherwise (the session is over). One primary-key read.
 */
export async function currentSessionUser({ ctx, input }: { ctx: { db: Db }; input: { userId: string; fingerprint: string } }): Promise<{ tenantId: string; email: string } | null> {
  const [user] = await ctx.db.select({ tenantId: users.tenantId, email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, input.userId)).limit(1);
  if (!user || credentialFingerprint(user.passwordHash) !== input.fingerprint) return null;
  return { tenantId: user.tenantId, email: user.email };
}
