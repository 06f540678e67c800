import { createHash } from "node:crypto";
import type { TenantCtx } from "@/lib/context";
import { certificates } from "@/lib/db/schema";
import { env } from "@/lib/env";
import type { DeviceInput } from "@/lib/schemas/common";
import type { GeneratedCertificate } from "@/lib/schemas/certificates";
import { oneDevice } from "@/lib/scores/queries/one-device";
import { buildCertifiedContent, canonicalContent, verifyHashOf } from "./build-certificate";
import { newCertificateNumber } from "./certificate-number";
import { KEYS_PATH, verifyUrlOf } from "./certificate-status";
import { loadCertificateSources } from "./queries/load-certificate-inputs";
import { renderSealedCertificatePdf } from "./render-sealed-pdf";
import { currentSigningKey, publishSigningKey, signBytes } from "./signing-key";

/** A fresh number collides with an existing one about once in 60 million; a few draws always suffice. */
const MAX_NUMBER_DRAWS = 5;

/**
 * Endpoint 11: certifies the device's current state. The content (EOL grade, vehicle health, battery,
 * residual value) is hashed and signed, the PDF rendered and sealed once, and all of it stored in one
 * insert: the stored row never changes afterwards (a trigger refuses it), so retrieval, every download
 * and the public verification show exactly what was issued.
 */
export async function generateCertificate({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<GeneratedCertificate> {
  const sources = oneDevice(await loadCertificateSources({ ctx, deviceIds: [input.device_id], now }), input.device_id);
  const key = currentSigningKey();
  await publishSigningKey(ctx.db, key);
  const { PUBLIC_BASE_URL, FDP_CERT_VALIDITY_DAYS } = env();
  for (let draw = 1; ; draw += 1) {
    const number = newCertificateNumber(now);
    const content = buildCertifiedContent(sources, { number, now, validityDays: FDP_CERT_VALIDITY_DAYS });
    const canonical = canonicalContent(content);
    const verifyHash = verifyHashOf(canonical);
    const signature = { alg: "Ed25519" as const, kid: key.kid, value: signBytes(key, Buffer.from(canonical, "utf8")).toString("base64url"), keys_url: `${PUBLIC_BASE_URL.replace(/\/+$/, "")}${KEYS_PATH}` };
    const verifyUrl = verifyUrlOf(PUBLIC_BASE_URL, number);
    const pdf = await renderSealedCertificatePdf(content, { verify_url: verifyUrl, verify_hash: verifyHash, signature }, key);
    const inserted = await ctx.db
      .insert(certificates)
      .values({
        number,
        tenantId: ctx.tenantId,
        deviceId: content.device_id,
        content: canonical,
        verifyHash,
        confidence: sources.eol.confidence,
        grade: content.grade,
        generatedAt: new Date(content.generated_at),
        expiresAt: new Date(content.expires_at),
        signatureKid: key.kid,
        signature: signature.value,
        pdf,
        pdfSha256: createHash("sha256").update(pdf).digest("hex"),
      })
      .onConflictDoNothing({ target: certificates.number })
      .returning({ number: certificates.number });
    if (inserted.length === 1) {
      ctx.log.info({ certificate_number: number, device_id: content.device_id }, "certificate generated");
      return { ...content, confidence: sources.eol.confidence, verify_url: verifyUrl, verify_hash: verifyHash, pdf_base64: pdf.toString("base64"), signature };
    }
    if (draw >= MAX_NUMBER_DRAWS) throw new Error(`could not draw a free certificate number in ${MAX_NUMBER_DRAWS} attempts`);
  }
}
