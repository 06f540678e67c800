import type { KeyObject } from "node:crypto";
import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import { env } from "@/lib/env";
import type { CertificatePdfInput } from "@/lib/certificates/pdf/certificate-pdf-input";
import type { KeysDocument, PublishedKey } from "@/lib/certificates/signing/keys-document";
import type { PdfSigner } from "@/lib/certificates/signing/pades";
import { certificateDer, certificateFingerprint, createPdfSigningCertificate } from "@/lib/certificates/signing/pdf-signing-certificate";

/** A throwaway signing key (Ed25519 for the JWS, RSA + X.509 for the PDF) with its published entry. */
interface TestKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  pdf: PdfSigner;
  pdfCertificateSha256: string;
  jwk: PublishedKey;
}

export function makeTestKey(kid: string, lifecycle: Partial<Pick<PublishedKey, "status" | "valid_from" | "valid_until" | "revoked_at" | "revocation_reason">> = {}): TestKey {
  const { publicKey, privateKey } = generateKeyPair("ed25519");
  const pdf = createPdfSigningCertificate(kid, new Date("2026-01-01T00:00:00Z"), env().FDP_PDF_SIGNING_RSA_BITS);
  const pdfCertificateSha256 = certificateFingerprint(certificateDer(pdf.certificatePem));
  const x = (publicKey.export({ format: "jwk" }) as { x: string }).x;
  const jwk: PublishedKey = {
    kid,
    kty: "OKP",
    crv: "Ed25519",
    x,
    alg: "EdDSA",
    use: "sig",
    status: "active",
    valid_from: "2026-01-01T00:00:00.000Z",
    valid_until: null,
    pdf_signing_certificate_sha256: pdfCertificateSha256,
    ...lifecycle,
  };
  return { kid, privateKey, publicKey, pdf, pdfCertificateSha256, jwk };
}

export const keysDocument = (...keys: PublishedKey[]): KeysDocument => ({ issuer: "FDP", keys });

/** A realistic certificate as the generator fills it (two pages with these sections). */
export function certificatePdfInput(overrides: Partial<CertificatePdfInput> = {}): CertificatePdfInput {
  return {
    certificate_number: "FDP-CERT-20261124-AB12C",
    verify_url: "https://fdp.example.com/verify/FDP-CERT-20261124-AB12C",
    verify_hash: "3f2a9c0d5b7e41a8c6d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5",
    generated_at: "2026-11-24T01:11:04Z",
    expires_at: "2027-05-23T01:11:04Z",
    grade: "B",
    grade_explanation: "Battery and drivetrain in good shape for the car's age and mileage.",
    device_id: "sbx-001",
    vehicle: { name: "Škoda Enyaq iV 80", vin: "TMBJB9NY4MF012345", make: "Škoda", model: "Enyaq iV 80", model_year: 2021, powertrain: "BEV" },
    headline: { vehicle_health_score: 82, residual_value_pct: 54.3, odometer_km: 61234, battery_soh_pct: 91.4 },
    sections: [
      {
        title: "Battery",
        rows: [
          { label: "State of health (SoH)", value: "91.4 %", note: "OEM BMS readout; SoH = usable capacity / rated capacity" },
          { label: "Remaining usable capacity", value: "70.4 kWh", note: "FDP estimate, ±2.1 kWh (95 % band)" },
        ],
      },
      {
        title: "Scores",
        rows: [
          { label: "Vehicle health score", value: "82 / 100" },
          { label: "Total asset score (TAS)", value: "B" },
        ],
      },
      { title: "Residual value", rows: [{ label: "Residual value", value: "54.3 % of the new price", note: "rule-based, rv-rules-2027.01" }] },
      {
        title: "Versions",
        rows: [
          { label: "TAS", value: "tas-2027.01" },
          { label: "Residual value", value: "rv-rules-2027.01" },
        ],
      },
    ],
    signing: {
      kid: "fdp-test-1",
      jws: "eyJhbGciOiJFZERTQSIsImtpZCI6ImZkcC10ZXN0LTEifQ..q1Qx0mVvVwq6Zl3kYp2d8p1n2m3b4v5c6x7z8a9s0d1f2g3h4j5k6l7z8x9c0v1b2n3m4q5w6e7r8t9y0u1i2o3p",
      pdf_certificate_sha256: "ab".repeat(32),
    },
    ...overrides,
  };
}
