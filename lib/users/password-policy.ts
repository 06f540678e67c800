import bcrypt from "bcryptjs";
import { z } from "zod";

/** bcrypt cost for dashboard passwords. */
export const BCRYPT_COST = 12;
const PASSWORD_MIN_LENGTH = 10;

/** An e-mail as stored: trimmed and lower-cased (unique across tenants; sign-in starts from it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A new password: at least 10 characters and at most 72 bytes in UTF-8, because bcrypt ignores
 * everything after the 72nd byte and a silently shortened password is worse than a clear refusal.
 */
export const newPasswordSchema = z
  .string({ message: "The password is required." })
  .min(PASSWORD_MIN_LENGTH, { message: `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.` })
  .refine((p) => !bcrypt.truncates(p), { message: "The password must be at most 72 bytes long (UTF-8)." });

/**
 * A valid cost-12 bcrypt hash that no password produces in practice: compared against when the
 * e-mail is unknown, so that an unknown e-mail takes as long as a wrong password.
 */
export const DUMMY_PASSWORD_HASH = "$2b$12$iV9QXZGk8/3B5g2d39ZEyOIBoKfxKXptzh/5stRTzRsojy9Dd9hSW";
