import { createHmac } from "node:crypto";
import { secretKeyOf } from "./webhook-secret";

/**
 * The Standard Webhooks headers of one delivery (standardwebhooks.com, CONTRACT "Webhooks and the
 * changes feed"): `webhook-id` (the event id, the same on every retry and replay), `webhook-timestamp`
 * (Unix seconds of this attempt) and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` keyed with the secret's decoded bytes. Receivers verify it with the
 * specification's libraries (tests/api/webhook-delivery.test.ts uses the `standardwebhooks` package).
 */
export function webhookHeaders(secret: string, id: string, at: Date, body: string): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac("sha256", secretKeyOf(secret)).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64");
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
}
