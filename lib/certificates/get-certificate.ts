import type { TenantCtx } from "@/lib/context";
import type { RetrievedCertificate } from "@/lib/schemas/certificates";
import { findCertificate, storedContent, storedSignature } from "./stored-certificate";

/**
 * Endpoint 12: the stored certificate of this tenant, unchanged since generation (SPEC 2.10 retrieved
 * form), with `is_expired` and CONTRACT's `revoked_at` (and the reason) as of now, and its JWS.
 */
export async function getCertificate({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: { certificate_number: string }; now?: Date }): Promise<RetrievedCertificate> {
  const row = await findCertificate(ctx.db, input.certificate_number, ctx.tenantId);
  return {
    ...storedContent(row),
    verify_hash: row.verifyHash,
    is_expired: row.expiresAt.getTime() <= now.getTime(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    revocation_reason: row.revokedReason,
    ...storedSignature(row),
  };
}
