import { z } from "zod";
import { generateCertificate } from "@/lib/certificates/generate-certificate";
import { getCertificate } from "@/lib/certificates/get-certificate";
import { getCertificatePdf } from "@/lib/certificates/get-certificate-pdf";
import { verifyCertificate } from "@/lib/certificates/verify-certificate";
import { certificateNumberPath, certificateVerificationSchema, generatedCertificateSchema, retrievedCertificateSchema } from "@/lib/schemas/certificates";
import { deviceIdParamsSchema } from "@/lib/schemas/scores-device";
import { defineOperation } from "./define-operation";

const certificatesWrite = { scope: "certificates:write" } as const;
const unknownCertificate = { 404: "Unknown certificate number, or one of another tenant (the two look the same)." };
/** A number the examples stand for; the examples script replaces it with one it has just generated. */
const EXAMPLE_CERTIFICATE_NUMBER = "FDP-CERT-20261124-7KQ2M";

/** Endpoint 11. */
export const generateCertificateOperation = defineOperation({
  id: "generateCertificate",
  method: "POST",
  path: "/certificates/generate/{device_id}",
  access: certificatesWrite,
  cost: "heavy",
  tag: "Certificates",
  summary: "Issue a digital vehicle health certificate (signed, with its PDF)",
  description:
    "No body. Aggregates the EOL summary, battery snapshot, rule-based residual value and vehicle health into an immutable record valid for 180 days, signed as a JWS (EdDSA, detached payload: `jws`, `key_id`); `pdf_base64` is the PDF with its PAdES signature. A BEV/PHEV whose state of health was not read within 90 days is graded at most C with confidence low. Format and verification: docs/certificates.md.",
  input: { path: deviceIdParamsSchema },
  output: generatedCertificateSchema,
  errors: { 404: "Unknown device, or one of another tenant (the two look the same)." },
  requestExample: { path: { device_id: "sbx-001" } },
  verb: generateCertificate,
});

/** Endpoint 12. */
export const getCertificateOperation = defineOperation({
  id: "getCertificate",
  method: "GET",
  path: "/certificates/{certificate_number}",
  access: certificatesWrite,
  reads: "replica",
  tag: "Certificates",
  summary: "A stored certificate by number, unchanged since it was issued",
  description: "`is_expired` and `revoked_at` are as of now; the certified fields recompute `verify_hash` (RFC 8785 canonical JSON, SHA-256).",
  input: { path: certificateNumberPath() },
  output: retrievedCertificateSchema,
  errors: unknownCertificate,
  requestExample: { path: { certificate_number: EXAMPLE_CERTIFICATE_NUMBER } },
  verb: getCertificate,
});

/** The PDF as issued (byte-identical on every download). */
export const getCertificatePdfOperation = defineOperation({
  id: "getCertificatePdf",
  method: "GET",
  path: "/certificates/{certificate_number}/pdf",
  access: certificatesWrite,
  reads: "replica",
  tag: "Certificates",
  summary: "The certificate's PDF, byte-identical to the one issued",
  description: "`application/pdf` with a PAdES signature over every byte (`pdfsig`, any PDF reader, or `npm run verify-certificate` offline; docs/certificates.md).",
  input: { path: certificateNumberPath() },
  output: z.string().meta({ format: "binary" }),
  produces: "application/pdf",
  errors: unknownCertificate,
  requestExample: { path: { certificate_number: EXAMPLE_CERTIFICATE_NUMBER } },
  verb: getCertificatePdf,
});

/** Public JSON twin of the verify page. */
export const verifyCertificateOperation = defineOperation({
  id: "verifyCertificate",
  method: "GET",
  path: "/certificates/{certificate_number}/verify",
  access: { public: true },
  tag: "Certificates",
  summary: "Verify a certificate (public, no key): valid, expired, revoked or invalid",
  description:
    "For auditors and buyers. Shows only what the certificate itself states, its JWS (keys with their validity at /.well-known/fdp-certificate-keys.json) and the SHA-256 of its PDF; never the tenant. `revoked` also when its signing key was revoked, `invalid` when the key was not valid at `generated_at` (`status_reason` says which). Shares the per-IP budget with the /verify page.",
  input: { path: certificateNumberPath() },
  output: certificateVerificationSchema,
  errors: { 404: "No certificate has this number." },
  requestExample: { path: { certificate_number: EXAMPLE_CERTIFICATE_NUMBER } },
  verb: verifyCertificate,
});
