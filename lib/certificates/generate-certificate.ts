import { createHash } from "node:crypto";
import type { TenantCtx } from "@/lib/context";
import { emitEvents } from "@/lib/events/emit-events";
import { certificates } from "@/lib/db/schema";
import { env } from "@/lib/env";
import type { DeviceInput } from "@/lib/schemas/common";
import type { GeneratedCertificate } from "@/lib/schemas/certificates";
import { oneDevice } from "@/lib/devices/one-device";
import { buildCertifiedContent, canonicalContent, verifyHashOf } from "./build-certificate";
import { newCertificateNumber } from "./certificate-number";
import { verifyUrlOf } from "./certificate-status";
import { loadCertificateSources } from "./queries/load-certificate-inputs";
import { renderSignedCertificatePdf } from "./render-signed-pdf";
import { jwsSignature, signDetachedJws } from "./signing/jws";
import { KEYS_PATH } from "./signing/keys-document";
import { activeSigningKey, forgetActiveKey, lockActiveKey } from "./signing/signing-keys";

/**
 * A fresh number collides with an existing one about once in 60 million, and a key rotation lands
 * between signing and storing rarely; a few attempts always suffice.
 */
const MAX_ATTEMPTS = 5;

/**
 * Endpoint 11: certifies the device's current state. The content (EOL grade, vehicle health, battery,
 * residual value) is hashed and signed (JWS), the PDF rendered and signed (PAdES) once, and all of it
 * stored in one insert: the stored row never changes afterwards (a trigger refuses it), so retrieval,
 * every download and the public verification show exactly what was issued. The insert runs only while
 * the signing key is still the active one (a share lock on its row), so a certificate is never stored
 * under a key retired or revoked meanwhile: then it is signed again with the new key.
 */
export async function generateCertificate({ ctx, input, now: asOf = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<GeneratedCertificate> {
  const sources = oneDevice(await loadCertificateSources({ ctx, deviceIds: [input.device_id], now: asOf }), input.device_id);
  // The time the certificate is signed at: after a key change meanwhile it moves on to the present,
  // where the new key is valid (the content's sources stay those loaded at `asOf`).
  let now = asOf;
  const { PUBLIC_BASE_URL, FDP_CERT_VALIDITY_DAYS } = env();
  const keysUrl = `${PUBLIC_BASE_URL.replace(/\/+$/, "")}${KEYS_PATH}`;
  for (let attempt = 1; ; attempt += 1) {
    const key = await activeSigningKey(ctx.db, now);
    const number = newCertificateNumber(now);
    const content = buildCertifiedContent(sources, { number, now, validityDays: FDP_CERT_VALIDITY_DAYS });
    const canonical = canonicalContent(content);
    const verifyHash = verifyHashOf(canonical);
    const jws = await signDetachedJws(Buffer.from(canonical, "utf8"), key);
    const signature = { alg: "EdDSA" as const, kid: key.kid, value: jwsSignature(jws), keys_url: keysUrl };
    const verifyUrl = verifyUrlOf(PUBLIC_BASE_URL, number);
    const pdf = await renderSignedCertificatePdf(content, { verify_url: verifyUrl, verify_hash: verifyHash, jws }, key);
    const generatedAt = new Date(content.generated_at);
    const outcome = await ctx.db.transaction(async (tx) => {
      if (!(await lockActiveKey(tx, key.kid, generatedAt))) return "key_changed" as const;
      const inserted = await tx
        .insert(certificates)
        .values({
          number,
          tenantId: ctx.tenantId,
          deviceId: content.device_id,
          content: canonical,
          verifyHash,
          confidence: sources.eol.confidence,
          grade: content.grade,
          generatedAt,
          expiresAt: new Date(content.expires_at),
          signatureKid: key.kid,
          signature: signature.value,
          jws,
          pdf,
          pdfSha256: createHash("sha256").update(pdf).digest("hex"),
        })
        .onConflictDoNothing({ target: certificates.number })
        .returning({ number: certificates.number });
      if (inserted.length !== 1) return "number_taken" as const;
      // Last in the transaction (it takes the tenant's event lock): the partners' `certificate.generated`.
      await emitEvents(tx, ctx.tenantId, [
        {
          type: "certificate.generated",
          data: { device_id: content.device_id, certificate_number: number, grade: content.grade, generated_at: content.generated_at, expires_at: content.expires_at },
        },
      ]);
      return "stored" as const;
    });
    if (outcome === "stored") {
      ctx.log.info({ certificate_number: number, device_id: content.device_id, kid: key.kid }, "certificate generated");
      return {
        ...content,
        confidence: sources.eol.confidence,
        verify_url: verifyUrl,
        verify_hash: verifyHash,
        pdf_base64: pdf.toString("base64"),
        signature,
        key_id: key.kid,
        jws,
      };
    }
    if (outcome === "key_changed") {
      forgetActiveKey(ctx.db);
      now = new Date(Math.max(asOf.getTime(), Date.now()));
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`could not store a certificate in ${MAX_ATTEMPTS} attempts (last: ${outcome})`);
  }
}
