import { randomBytes } from "node:crypto";

/** CONTRACT: `whsec_` + base64 of at least 24 random bytes; FDP draws 32 (the Standard Webhooks libraries' own size). */
const SECRET_BYTES = 32;
const SECRET_PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The HMAC key: the base64-decoded part after `whsec_` (Standard Webhooks). */
export function secretKeyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}
