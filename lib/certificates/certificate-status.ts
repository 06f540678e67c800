import type { CertificateStatus } from "@/lib/schemas/certificates";
import { keyValidityAt } from "./signing/keys-document";

/** A signing key's lifecycle as stored (certificate_signing_keys). */
export interface KeyLifecycle {
  kid: string;
  status: "active" | "retired" | "revoked";
  validFrom: Date;
  validUntil: Date | null;
  revokedAt: Date | null;
  revocationReason: string | null;
}

/**
 * A stored certificate's status now. Revoked wins (an auditor must learn that a certificate was
 * withdrawn, whatever its date), then the key's lifecycle (CONTRACT "Evidence and trust": revoked key →
 * revoked; key not valid at `generated_at` → invalid), then expiry.
 */
export function certificateStatus(
  row: { generatedAt: Date; expiresAt: Date; revokedAt: Date | null; revokedReason?: string | null },
  key: KeyLifecycle | null,
  now: Date,
): { status: CertificateStatus; reason: string | null } {
  if (row.revokedAt !== null)
    return { status: "revoked", reason: `the certificate was revoked on ${row.revokedAt.toISOString().slice(0, 10)}${row.revokedReason ? `: ${row.revokedReason}` : ""}` };
  const validity = keyValidityAt(
    key === null
      ? undefined
      : {
          kid: key.kid,
          status: key.status,
          valid_from: key.validFrom.toISOString(),
          valid_until: key.validUntil?.toISOString() ?? null,
          revoked_at: key.revokedAt?.toISOString(),
          revocation_reason: key.revocationReason ?? undefined,
        },
    row.generatedAt,
  );
  if (!validity.ok) return { status: validity.status, reason: validity.reason };
  return { status: row.expiresAt.getTime() <= now.getTime() ? "expired" : "valid", reason: null };
}

export function verifyUrlOf(publicBaseUrl: string, number: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/verify/${number}`;
}
