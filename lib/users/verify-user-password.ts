import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { parseInput } from "@/lib/validation";
import { credentialFingerprint } from "./credential-fingerprint";
import { DUMMY_PASSWORD_HASH, normalizeEmail } from "./password-policy";

/** Sign-in input is only shape-checked: a malformed e-mail simply matches no user. */
const verifyUserPasswordInput = z.object({
  email: z.string({ message: "The e-mail address is required." }).max(1024, { message: "The e-mail address is too long." }),
  password: z.string({ message: "The password is required." }).max(1024, { message: "The password is too long." }),
});
type VerifyUserPasswordInput = z.input<typeof verifyUserPasswordInput>;

/**
 * Checks a dashboard sign-in. Returns the user, tenant and the fingerprint of the password the session
 * is bound to (lib/users/credential-fingerprint.ts), or null for an unknown e-mail or a wrong
 * password, without telling which: an unknown e-mail still costs one bcrypt comparison (against a
 * dummy hash), so response time does not reveal which e-mails exist.
 */
export async function verifyUserPassword({
  ctx,
  input,
}: {
  ctx: { db: Db };
  input: VerifyUserPasswordInput;
}): Promise<{ userId: string; tenantId: string; credentialFingerprint: string } | null> {
  const data = parseInput(verifyUserPasswordInput, input);
  const email = normalizeEmail(data.email);
  const [user] = email ? await ctx.db.select({ id: users.id, tenantId: users.tenantId, passwordHash: users.passwordHash }).from(users).where(eq(users.email, email)).limit(1) : [];
  if (!user) {
    await bcrypt.compare(data.password, DUMMY_PASSWORD_HASH);
    return null;
  }
  const ok = await bcrypt.compare(data.password, user.passwordHash);
  return ok ? { userId: user.id, tenantId: user.tenantId, credentialFingerprint: credentialFingerprint(user.passwordHash) } : null;
}
