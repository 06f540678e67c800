import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { certificates } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { NotFoundError } from "@/lib/errors";
import { CERTIFICATE_NUMBER_PATTERN } from "@/lib/schemas/certificates";
import { parseInput } from "@/lib/validation";

/** A revocation's reason (a certificate's or a signing key's): auditors are shown it, so it is required and printable. */
export const revocationReason = (what: string) =>
  z
    .string({ message: `A reason is required: auditors are shown why a ${what} was revoked.` })
    .trim()
    .min(3, { message: "Give a reason of at least 3 characters: auditors are shown it." })
    .max(500, { message: "The reason is at most 500 characters." })
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), { message: "The reason must not contain control characters." });

export const revokeCertificateInput = z.object({
  number: z.string({ message: "The certificate number is required." }).trim().regex(CERTIFICATE_NUMBER_PATTERN, {
    message: "A certificate number looks like FDP-CERT-20261124-7KQ2M.",
  }),
  reason: revocationReason("certificate"),
});
type RevokeCertificateInput = z.input<typeof revokeCertificateInput>;

/**
 * Revokes a certificate (operators, CONTRACT `certificate:revoke`). Verification reads the database on
 * every request, so it says "revoked" at once (well within the CONTRACT's 5 s). Revoking again keeps
 * the first date and reason: a revocation is itself a record an auditor may have seen. The first
 * revocation emits `certificate.revoked` (docs/webhooks.md).
 */
export async function revokeCertificate({ ctx, input, now = new Date() }: { ctx: { db: Db }; input: RevokeCertificateInput; now?: Date }): Promise<{ revoked: true }> {
  const data = parseInput(revokeCertificateInput, input);
  const revoked = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(certificates)
      .set({ revokedAt: now, revokedReason: data.reason })
      .where(and(eq(certificates.number, data.number), isNull(certificates.revokedAt)))
      .returning({ number: certificates.number, tenantId: certificates.tenantId, deviceId: certificates.deviceId });
    if (!updated) return false;
    // The partners' `certificate.revoked`, committed with the revocation. The reason is for auditors (the verify page), not in the event.
    await emitEvents(tx, updated.tenantId, [
      { type: "certificate.revoked", data: { device_id: updated.deviceId, certificate_number: updated.number, revoked_at: now.toISOString() } },
    ]);
    return true;
  });
  if (revoked) return { revoked: true };
  const [exists] = await ctx.db.select({ number: certificates.number }).from(certificates).where(eq(certificates.number, data.number)).limit(1);
  if (!exists) throw new NotFoundError(`No certificate ${data.number}.`);
  return { revoked: true };
}
