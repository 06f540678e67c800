import { and, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { certificates } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import type { CertifiedContent } from "@/lib/schemas/certificates";
import { KEYS_PATH } from "./certificate-status";

export type CertificateRow = typeof certificates.$inferSelect;

/**
 * A stored certificate by number: of `tenantId` only (endpoint 12, the PDF), or of anyone (the public
 * verification). Unknown and another tenant's look the same: 404.
 */
export async function findCertificate(db: Db, number: string, tenantId?: string, { withPdf = false } = {}): Promise<CertificateRow> {
  const { pdf: _pdf, ...withoutPdf } = getTableColumns(certificates);
  const where = tenantId === undefined ? eq(certificates.number, number) : and(eq(certificates.number, number), eq(certificates.tenantId, tenantId));
  const [row] = withPdf
    ? await db.select().from(certificates).where(where).limit(1)
    : ((await db.select(withoutPdf).from(certificates).where(where).limit(1)) as CertificateRow[]);
  if (!row) throw new NotFoundError(`No certificate ${number}.`);
  return row;
}

/** The certified content exactly as stored (and hashed): parsed from the canonical JSON, never rebuilt. */
export function storedContent(row: CertificateRow): CertifiedContent {
  return JSON.parse(row.content) as CertifiedContent;
}

export function storedSignature(row: CertificateRow) {
  return {
    alg: "Ed25519" as const,
    kid: row.signatureKid,
    value: row.signature,
    keys_url: `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${KEYS_PATH}`,
  };
}
