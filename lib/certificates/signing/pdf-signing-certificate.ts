import { createHash, randomBytes, sign, type KeyObject } from "node:crypto";
import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import type { Env } from "@/lib/env";
import forge from "node-forge";

/**
 * The X.509 certificate of a key that signs certificate PDFs (PAdES, lib/certificates/signing/pades.ts).
 *
 * Self-signed: FDP is not a trust service provider, so a PDF reader says "issuer unknown" however the
 * certificate is made; what an auditor checks is that the signing certificate is the one FDP publishes
 * at /.well-known/fdp-certificate-signing.pem (by its SHA-256 fingerprint, which the certificate PDF
 * and the keys document also print). RSA with SHA-256: what poppler's `pdfsig` (NSS) and every PDF
 * reader verify; the modulus is FDP_PDF_SIGNING_RSA_BITS (3072 by default: NIST SP 800-57 Part 1 rates
 * RSA-3072 at 128-bit security, Ed25519's level).
 */
/**
 * The certificate outlives the key's signing period: a PDF signed on the last day of a key must still
 * show a signer certificate within its validity to a reader checking it years later. 25 years is
 * longer than any vehicle's life on the road; FDP's own rule (the key's `valid_from`/`valid_until` in
 * the keys document) decides which certificates a key may sign.
 */
const CERTIFICATE_YEARS = 25;

interface PdfSigningCertificate {
  privateKey: KeyObject;
  certificatePem: string;
}

/** forge's own helper, which @types/node-forge leaves out: the TBSCertificate (RFC 5280 4.1) a signature covers. */
interface ForgeTbs {
  getTBSCertificate(cert: forge.pki.Certificate): forge.asn1.Asn1;
}

/** Subject and issuer: the key id names the signing key the certificate belongs to. */
function subject(kid: string): forge.pki.CertificateField[] {
  return [
    { name: "commonName", value: `FDP certificate signing ${kid}` },
    { name: "organizationName", value: "FDP - Fleet Data Products" },
  ];
}

export function createPdfSigningCertificate(kid: string, validFrom: Date, rsaBits: Env["FDP_PDF_SIGNING_RSA_BITS"]): PdfSigningCertificate {
  const { privateKey, publicKey } = generateKeyPair("rsa", { modulusLength: rsaBits });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }) as string);
  // RFC 5280 4.1.2.2: a positive integer of at most 20 octets, unique per issuer (random, top bit clear).
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(validFrom.getTime() - 60_000);
  cert.validity.notAfter = new Date(Date.UTC(validFrom.getUTCFullYear() + CERTIFICATE_YEARS, validFrom.getUTCMonth(), validFrom.getUTCDate()));
  cert.setSubject(subject(kid));
  cert.setIssuer(subject(kid));
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  // What forge's `cert.sign(key, sha256)` does, with the RSASSA-PKCS1-v1_5 signature made by Node's crypto:
  // forge computes RSA in JavaScript, about 0.1 s of CPU for a 3072-bit key, Node in a millisecond.
  cert.signatureOid = cert.siginfo.algorithmOid = forge.pki.oids.sha256WithRSAEncryption!;
  const tbs = (forge.pki as unknown as ForgeTbs).getTBSCertificate(cert);
  cert.signature = sign("sha256", Buffer.from(forge.asn1.toDer(tbs).getBytes(), "binary"), privateKey).toString("binary");
  return { privateKey, certificatePem: forge.pki.certificateToPem(cert) };
}

/** DER bytes of the first certificate in a PEM text. */
export function certificateDer(pem: string): Buffer {
  const cert = forge.pki.certificateFromPem(pem);
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
}

/** Lowercase hex SHA-256 of a certificate's DER: what `openssl x509 -fingerprint -sha256` prints (without colons). */
export function certificateFingerprint(der: Buffer): string {
  return createHash("sha256").update(der).digest("hex");
}
