/**
 * What the certificate PDF prints, filled by the certificate generator. Every text is already worded
 * for a non-expert by the caller; the renderer only lays it out. Dates are RFC 3339 strings.
 */
export type CertificateGrade = "A" | "B" | "C" | "D" | "F";

export interface CertificatePdfRow {
  label: string;
  value: string;
  /** How the figure was obtained (e.g. "OEM BMS readout", "FDP estimate ±3 %"), printed under the value. */
  note?: string;
}

export interface CertificatePdfSection {
  title: string;
  rows: CertificatePdfRow[];
}

export interface CertificatePdfInput {
  certificate_number: string;
  verify_url: string;
  /** Lowercase hex SHA-256 of the certified content (CONTRACT "Settled details"). */
  verify_hash: string;
  generated_at: string;
  expires_at: string;
  grade: CertificateGrade;
  /** One plain-language line on what the grade means for this vehicle. */
  grade_explanation: string;
  device_id: string;
  vehicle: {
    name: string;
    vin: string | null;
    make: string | null;
    model: string | null;
    model_year: number | null;
    powertrain: string | null;
  };
  headline: {
    vehicle_health_score: number | null;
    residual_value_pct: number | null;
    odometer_km: number | null;
    battery_soh_pct: number | null;
  };
  /** Battery (with the method per figure), scores, residual value, versions. */
  sections: CertificatePdfSection[];
  /**
   * How the certificate is signed, printed so an auditor can transcribe it: the key id, the content's
   * JWS (compact, detached payload) and the SHA-256 fingerprint of the certificate that signs the PDF.
   */
  signing: { kid: string; jws: string; pdf_certificate_sha256: string };
}
