import { execFileSync } from "node:child_process";
import { createPublicKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { certificateDer, certificateFingerprint, createPdfSigningCertificate } from "@/lib/certificates/signing/pdf-signing-certificate";

/**
 * The self-signed X.509 certificate of a PDF signing key, read back by tools other than the one that
 * made it: Node's X509Certificate (OpenSSL) verifies its signature under its own public key, and the
 * `openssl` command agrees on the fingerprint FDP publishes.
 */
describe("createPdfSigningCertificate", () => {
  const validFrom = new Date("2026-11-30T12:00:00Z");
  // The production default's modulus (lib/env.ts FDP_PDF_SIGNING_RSA_BITS; the tests' own keys are 2048).
  const { privateKey, certificatePem } = createPdfSigningCertificate("k_test_0001", validFrom, 3072);
  const x509 = new X509Certificate(certificatePem);

  it("is signed by its own key (sha256WithRSAEncryption), which is the key returned", () => {
    expect(x509.verify(createPublicKey(privateKey))).toBe(true);
    expect(x509.checkPrivateKey(privateKey)).toBe(true);
    expect(x509.publicKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 3072 });
    const text = execFileSync("openssl", ["x509", "-noout", "-text"], { input: certificatePem, encoding: "utf8" });
    expect(text).toContain("Signature Algorithm: sha256WithRSAEncryption");
  });

  it("names the key, is valid from a minute before the key for 25 years, and may not act as a CA", () => {
    expect(x509.subject).toBe(x509.issuer);
    expect(x509.subject).toContain("CN=FDP certificate signing k_test_0001");
    expect(new Date(x509.validFrom).toISOString()).toBe("2026-11-30T11:59:00.000Z");
    expect(new Date(x509.validTo).toISOString()).toBe("2051-11-30T00:00:00.000Z");
    expect(x509.ca).toBe(false);
  });

  it("has the fingerprint `openssl x509 -fingerprint -sha256` prints", () => {
    const printed = execFileSync("openssl", ["x509", "-noout", "-fingerprint", "-sha256"], { input: certificatePem, encoding: "utf8" });
    expect(printed.trim().split("=")[1]!.replaceAll(":", "").toLowerCase()).toBe(certificateFingerprint(certificateDer(certificatePem)));
  });
});
