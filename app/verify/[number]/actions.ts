"use server";

import { checkCertificatePdf, type PdfCheck } from "@/lib/certificates/check-certificate-pdf";
import { MAX_CHECKED_PDF_BYTES, PDF_TOO_LARGE_STATEMENT } from "@/lib/certificates/pdf-check-limits";
import { getDb } from "@/lib/db/client";
import { rootLogger } from "@/lib/log/logger";
import { CERTIFICATE_NUMBER_PATTERN } from "@/lib/schemas/certificates";

/**
 * The verify page's "drop a PDF" check. Public like the page (server.ts counts the POST against the
 * page's per-IP budget); the file is read into memory only up to MAX_CHECKED_PDF_BYTES and never stored.
 */
export async function checkDroppedPdf(certificateNumber: string, form: FormData): Promise<PdfCheck> {
  if (!CERTIFICATE_NUMBER_PATTERN.test(certificateNumber)) return { authentic: false, statement: "Unknown certificate number." };
  const file = form.get("pdf");
  if (!(file instanceof File) || file.size === 0) return { authentic: false, statement: "Choose a PDF file to check." };
  if (file.size > MAX_CHECKED_PDF_BYTES) return { authentic: false, statement: PDF_TOO_LARGE_STATEMENT };
  const pdf = Buffer.from(await file.arrayBuffer());
  return checkCertificatePdf({ ctx: { db: await getDb(), log: rootLogger() }, input: { certificate_number: certificateNumber, pdf } });
}
