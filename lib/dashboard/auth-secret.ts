import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";

/**
 * The secret next-auth signs and encrypts session cookies with. AUTH_SECRET when set; else, like the
 * certificate signing key (lib/certificates/signing-key.ts), a secret generated once into a file
 * beside the embedded database, so `npm run dev` works with no configuration and sessions survive a
 * restart. With DATABASE_URL in production several instances may serve one address, and each would
 * generate its own secret (every session valid on one instance only): there AUTH_SECRET is required.
 */

/** 32 random bytes: next-auth derives its encryption key with HKDF from this (any length ≥ 32 chars works). */
const GENERATED_SECRET_BYTES = 32;

function defaultSecretFile(): string {
  return path.join(path.dirname(path.resolve(/*turbopackIgnore: true*/ env().FDP_DATA_DIR)), "auth-secret");
}

function loadOrCreateSecretFile(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: if another process created it meanwhile, keep theirs (read below).
    writeFileSync(file, randomBytes(GENERATED_SECRET_BYTES).toString("base64url"), { mode: 0o600, flag: "wx" });
    rootLogger().warn({ file }, "dashboard: generated a new session secret (set AUTH_SECRET in production)");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return readFileSync(file, "utf8").trim();
}

let cached: { source: string; secret: string } | undefined;

export function authSecret(): string {
  const { AUTH_SECRET, AUTH_SECRET_FILE, DATABASE_URL } = env();
  if (AUTH_SECRET) return AUTH_SECRET;
  if (DATABASE_URL && process.env.NODE_ENV === "production" && !AUTH_SECRET_FILE) {
    throw new Error("AUTH_SECRET is required with DATABASE_URL in production (every instance must share it); generate one with `openssl rand -base64 32`.");
  }
  const file = AUTH_SECRET_FILE ?? defaultSecretFile();
  if (cached?.source === file) return cached.secret;
  cached = { source: file, secret: loadOrCreateSecretFile(file) };
  return cached.secret;
}
