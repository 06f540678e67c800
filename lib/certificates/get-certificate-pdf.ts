import type { TenantCtx } from "@/lib/context";
import { findCertificate } from "./stored-certificate";

/**
 * The certificate's PDF exactly as issued (the stored bytes, so every download is byte-identical and
 * its PDF signature verifies). An attachment named after the number.
 */
export async function getCertificatePdf({ ctx, input }: { ctx: TenantCtx; input: { certificate_number: string } }): Promise<Response> {
  const row = await findCertificate(ctx.db, input.certificate_number, ctx.tenantId, { withPdf: true });
  return new Response(new Uint8Array(row.pdf), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${row.number}.pdf"`,
      "Content-Length": String(row.pdf.length),
      // Immutable bytes: safe to cache privately, never shared (the certificate belongs to a tenant).
      "Cache-Control": "private, max-age=86400, immutable",
      ETag: `"${row.pdfSha256}"`,
    },
  });
}
