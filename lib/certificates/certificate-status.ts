import type { CertificateStatus } from "@/lib/schemas/certificates";

/** Revoked wins over expired: an auditor must learn that a certificate was withdrawn, whatever its date. */
export function certificateStatus(row: { expiresAt: Date; revokedAt: Date | null }, now: Date): CertificateStatus {
  if (row.revokedAt !== null) return "revoked";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "valid";
}

export function verifyUrlOf(publicBaseUrl: string, number: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/verify/${number}`;
}

export const KEYS_PATH = "/.well-known/fdp-certificate-keys.json";
