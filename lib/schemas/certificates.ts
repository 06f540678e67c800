import { z } from "zod";
import { POWERTRAINS } from "@/lib/vocabulary/powertrain";
import { EOL_GRADES } from "@/lib/vocabulary/scores";
import { dateTime } from "./common";
import { sohEvidenceSchema } from "./scores-device";

/**
 * Certificates (SPEC 2.10, CONTRACT "Certificates and verification"). The certified content is
 * exactly the eight fields the hash covers; everything a certificate states about the vehicle is in
 * `data_snapshot`, which the PDF prints in full and the public verification shows, nothing more.
 */

/**
 * `revoked`: the certificate or its signing key was revoked; `invalid`: its key was not valid at its
 * `generated_at` (CONTRACT "Evidence and trust"); `expired`: past `expires_at`.
 */
export const CERTIFICATE_STATUSES = ["valid", "expired", "revoked", "invalid"] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>` (CONTRACT "Names and addresses"). */
export const CERTIFICATE_NUMBER_PATTERN = /^FDP-CERT-\d{8}-[A-Z0-9]{5}$/;

export const certificateNumberPath = () =>
  z.object({
    certificate_number: z
      .string()
      .regex(CERTIFICATE_NUMBER_PATTERN, { message: "A certificate number looks like FDP-CERT-20261124-7KQ2M." })
      .meta({ description: "The certificate number, `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>`.", example: "FDP-CERT-20261124-7KQ2M" }),
  });

const score = () => z.number().min(0).max(100);
const measuredBy = z.enum(["oem_bms_readout", "fdp_estimate", "master_data", "not_measured"]);

/** How the battery figures were obtained; keys in camelCase are the EU Battery Passport's attribute names. */
const batterySnapshotSchema = z
  .object({
    has_traction_battery: z.boolean().nullable(),
    state_of_health: z.object({
      value_pct: z.number().nullable(),
      measured_by: measuredBy,
      definition: z.string(),
      measured_at: dateTime().nullable(),
      uncertainty_pct: z.number().nullable().meta({ description: "Half-width of the band around the value; null when the source does not state one (a BMS readout)." }),
      battery_passport_attribute: z.string().nullable().meta({
        description: "The EU Battery Passport attribute this figure corresponds to, or null when the definitions differ (then `definition` says how).",
      }),
      readings_set_aside: z.number().int(),
      evidence: sohEvidenceSchema.optional().meta({
        description: "Which reading the state of health rests on and how old it was at `generated_at` (format fdp-certificate-2027.02 on; absent in older certificates).",
      }),
    }),
    stateOfCharge: z
      .object({ value_pct: z.number().nullable(), measured_by: measuredBy, measured_at: dateTime().nullable() })
      .meta({ description: "Battery Passport `stateOfCharge` (Battery Pass data model, PerformanceAndDurability)." }),
    ratedEnergy: z
      .object({ value_kwh: z.number().nullable(), measured_by: measuredBy })
      .meta({ description: "Battery Passport `ratedEnergy`: the usable capacity declared in the vehicle's master data." }),
  })
  .meta({ id: "CertificateBattery" });

export const certificateSnapshotSchema = z
  .object({
    format: z.string().meta({ description: "Layout of this snapshot, e.g. `fdp-certificate-2027.01`." }),
    vehicle: z.object({
      name: z.string(),
      vin: z.string().nullable(),
      make: z.string().nullable(),
      model: z.string().nullable(),
      model_year: z.number().int().nullable(),
      powertrain: z.enum(POWERTRAINS).nullable(),
      asset_class: z.string(),
    }),
    odometer: z.object({
      odometer_km: z.number().nullable(),
      read_at: dateTime().nullable(),
      manipulation_found: z.boolean(),
    }),
    condition: z.object({
      grade: z.enum(EOL_GRADES),
      confidence: z.enum(["high", "medium", "low"]),
      knockouts: z.array(z.object({ knockout: z.string(), statement: z.string() })),
    }),
    vehicle_health: z.object({
      score: score().nullable(),
      confidence: z.enum(["high", "medium", "low"]),
      components: z.record(z.string(), score().nullable()),
    }),
    battery: batterySnapshotSchema,
    residual_value: z.object({
      estimated_residual_pct: z.number().nullable(),
      confidence: z.enum(["high", "medium", "low"]).nullable(),
      age_months: z.number().int().nullable(),
      mileage_km: z.number().nullable(),
    }),
    data_as_of: dateTime().nullable().meta({ description: "Device time of the newest telemetry the certificate rests on." }),
    methods: z.record(z.string(), z.string()).meta({ description: "Version of every score and model used, by output." }),
  })
  .meta({ id: "CertificateSnapshot", description: "What the certificate states about the vehicle, printed in full on its PDF." });
export type CertificateSnapshot = z.output<typeof certificateSnapshotSchema>;

/** The eight fields the hash and the signature cover (CONTRACT "Settled details"). */
export const certifiedContentSchema = z.object({
  certificate_number: z.string(),
  device_id: z.string(),
  grade: z.enum(EOL_GRADES),
  vehicle_health_score: score().nullable(),
  residual_value_pct: z.number().nullable(),
  data_snapshot: certificateSnapshotSchema,
  generated_at: dateTime(),
  expires_at: dateTime(),
});
export type CertifiedContent = z.output<typeof certifiedContentSchema>;

const certificateSignatureSchema = z
  .object({
    alg: z.enum(["EdDSA", "Ed25519"]).meta({
      description:
        "EdDSA: the signature of `jws` (RFC 7515 with detached payload, RFC 8037), from format fdp-certificate-2027.02 on. Ed25519: a certificate issued before: `value` is a raw Ed25519 signature over the canonical bytes and `jws` is null.",
    }),
    kid: z.string().meta({ description: "Key id (RFC 7638 thumbprint) in /.well-known/fdp-certificate-keys.json." }),
    value: z.string().meta({ description: "base64url Ed25519 signature (for EdDSA: the JWS's third part)." }),
    keys_url: z.string(),
  })
  .meta({ id: "CertificateSignature" });

/** CONTRACT "Evidence and trust": the verify JSON (and generation, retrieval) carry `key_id` and `jws`. */
const jwsFields = {
  key_id: z.string().meta({ description: "The signing key's id in /.well-known/fdp-certificate-keys.json (the JWS header's `kid`)." }),
  jws: z.string().nullable().meta({
    description:
      "Compact JWS with detached payload (`<header>..<signature>`, RFC 7515 appendix F), alg EdDSA, `kid` in the protected header; the payload is the UTF-8 bytes of the RFC 8785 canonical JSON that `verify_hash` hashes. null for certificates issued before issue 27.",
  }),
};

export const generatedCertificateSchema = certifiedContentSchema
  .extend({
    confidence: z.enum(["high", "medium", "low"]),
    verify_url: z.string(),
    verify_hash: z.string().regex(/^[0-9a-f]{64}$/),
    pdf_base64: z.string().nullable(),
    signature: certificateSignatureSchema,
    ...jwsFields,
  })
  .meta({ id: "GeneratedCertificate", description: "A new certificate (SPEC 2.10, generated form)." });

export const retrievedCertificateSchema = certifiedContentSchema
  .extend({
    verify_hash: z.string().regex(/^[0-9a-f]{64}$/),
    is_expired: z.boolean(),
    revoked_at: dateTime().nullable(),
    revocation_reason: z.string().nullable(),
    signature: certificateSignatureSchema,
    ...jwsFields,
  })
  .meta({ id: "RetrievedCertificate", description: "A stored certificate (SPEC 2.10, retrieved form), unchanged since generation." });

export const certificateVerificationSchema = certifiedContentSchema
  .extend({
    status: z.enum(CERTIFICATE_STATUSES),
    verify_hash: z.string().regex(/^[0-9a-f]{64}$/),
    revoked_at: dateTime().nullable(),
    revocation_reason: z.string().nullable(),
    status_reason: z
      .string()
      .nullable()
      .meta({ description: "Why the status is revoked or invalid, in words (the certificate's or its key's revocation, or the key's validity); null when valid or expired." }),
    signature: certificateSignatureSchema,
    ...jwsFields,
    pdf_sha256: z.string().meta({ description: "SHA-256 of the certificate's PDF as FDP issued it: a copy with other bytes is not the original." }),
  })
  .meta({
    id: "CertificateVerification",
    description: "Public verification: the certificate's status and what the certificate itself states; never the tenant.",
  });

export type GeneratedCertificate = z.input<typeof generatedCertificateSchema>;
export type RetrievedCertificate = z.input<typeof retrievedCertificateSchema>;
export type CertificateVerification = z.input<typeof certificateVerificationSchema>;
