import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { ValidationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { assertTenantExists } from "@/lib/tenants/assert-tenant-exists";
import { parseInput } from "@/lib/validation";
import { BCRYPT_COST, newPasswordSchema, normalizeEmail } from "./password-policy";

export const createUserInput = z.object({
  tenantId: z.string({ message: "The tenant id is required." }).trim().min(1, { message: "The tenant id is required." }),
  email: z
    .string({ message: "The e-mail address is required." })
    .max(254, { message: "The e-mail address is at most 254 characters." })
    .transform(normalizeEmail)
    .pipe(z.email({ message: "The e-mail address is not valid." })),
  password: newPasswordSchema,
});
type CreateUserInput = z.input<typeof createUserInput>;

function duplicateEmail(email: string): ValidationError {
  return new ValidationError(`A user with the e-mail ${email} already exists.`, [
    { field: "email", message: "A user with this e-mail address already exists (e-mails are unique across tenants)." },
  ]);
}

/** Postgres unique_violation, whether thrown by the driver directly or wrapped by drizzle. */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Creates a dashboard user of a tenant; the password is kept only as a bcrypt hash (cost 12). */
export async function createUser({ ctx, input }: { ctx: { db: Db }; input: CreateUserInput }): Promise<{ userId: string }> {
  const data = parseInput(createUserInput, input);
  await assertTenantExists(ctx.db, data.tenantId);
  const [existing] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, data.email)).limit(1);
  if (existing) throw duplicateEmail(data.email);

  const passwordHash = await bcrypt.hash(data.password, BCRYPT_COST);
  const userId = newId("usr");
  try {
    await ctx.db.insert(users).values({ id: userId, tenantId: data.tenantId, email: data.email, passwordHash });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateEmail(data.email); // lost a race with a concurrent create
    throw err;
  }
  return { userId };
}
