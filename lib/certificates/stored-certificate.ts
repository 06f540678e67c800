import { and, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { certificates, certificateSigningKeys } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import type { CertifiedContent } from "@/lib/schemas/certificates";
import type { KeyLifecycle } from "./certificate-status";
import { KEYS_PATH } from "./signing/keys-document";

type CertificateRow = typeof certificates.$inferSelect;

/** The signing key's lifecycle columns, joined to a certificate to judge its status (certificateStatus). */
export const keyLifecycleColumns = {
  kid: certificateSigningKeys.kid,
  status: certificateSigningKeys.status,
  validFrom: certificateSigningKeys.validFrom,
  validUntil: certificateSigningKeys.validUntil,
  revokedAt: certificateSigningKeys.revokedAt,
  revocationReason: certificateSigningKeys.revocationReason,
};

/**
 * A stored certificate by number with its signing key's lifecycle (one round trip): of `tenantId` only
 * (endpoint 12, the PDF), or of anyone (the public verification). Unknown and another tenant's look
 * the same: 404. `key` is null only if the key row is missing (it never is: keys are never deleted).
 */
export async function findCertificate(db: Db, number: string, tenantId?: string, { withPdf = false } = {}): Promise<CertificateRow & { key: KeyLifecycle | null }> {
  const { pdf: _pdf, ...withoutPdf } = getTableColumns(certificates);
  const where = tenantId === undefined ? eq(certificates.number, number) : and(eq(certificates.number, number), eq(certificates.tenantId, tenantId));
  const [found] = await db
    .select({ cert: withPdf ? getTableColumns(certificates) : withoutPdf, key: keyLifecycleColumns })
    .from(certificates)
    .leftJoin(certificateSigningKeys, eq(certificateSigningKeys.kid, certificates.signatureKid))
    .where(where)
    .limit(1);
  if (!found) throw new NotFoundError(`No certificate ${number}.`);
  return { ...(found.cert as CertificateRow), key: found.key?.kid ? found.key : null };
}

/** The certified content exactly as stored (and hashed): parsed from the canonical JSON, never rebuilt. */
export function storedContent(row: CertificateRow): CertifiedContent {
  return JSON.parse(row.content) as CertifiedContent;
}

/** `signature`, `key_id` and `jws` of a stored certificate (a certificate from before the JWS: alg Ed25519, jws null). */
export function storedSignature(row: CertificateRow) {
  return {
    signature: {
      alg: row.jws ? ("EdDSA" as const) : ("Ed25519" as const),
      kid: row.signatureKid,
      value: row.signature,
      keys_url: `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${KEYS_PATH}`,
    },
    key_id: row.signatureKid,
    jws: row.jws,
  };
}
