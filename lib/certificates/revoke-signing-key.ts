import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { revocationReason } from "./revoke-certificate";
import { KEY_ID_PATTERN } from "./signing/keys-document";
import { revokeSigningKey as revoke, type RevocationResult } from "./signing/signing-keys";

export const revokeSigningKeyInput = z.object({
  kid: z.string({ message: "The key id is required (see /.well-known/fdp-certificate-keys.json)." }).trim().regex(KEY_ID_PATTERN, {
    message: "A key id is the key's RFC 7638 thumbprint as published in /.well-known/fdp-certificate-keys.json.",
  }),
  reason: revocationReason("signing key"),
});

/**
 * Operator verb (admin CLI `signing-key:revoke`): every certificate the key signed verifies as revoked
 * from now on (CONTRACT "Evidence and trust"); revoking the active key also puts a new one in its place.
 * An unknown key id is a not_found error.
 */
export async function revokeSigningKey({ ctx, input, now }: { ctx: { db: Db }; input: z.input<typeof revokeSigningKeyInput>; now?: Date }): Promise<RevocationResult> {
  const { kid, reason } = revokeSigningKeyInput.parse(input);
  return revoke(ctx.db, { kid, reason }, now);
}
