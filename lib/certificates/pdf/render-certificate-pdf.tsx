import { Document, Page, Path, StyleSheet, Svg, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { BAND_HEIGHT, BRAND, BrandBand, PageFooter, Tile, brandStyles, groupDigits } from "../../pdf/brand";
import QRCode from "qrcode";
import { MONO, SANS, registerCertificateFonts } from "./certificate-fonts";
import { buildCertificateKeywords } from "./certificate-pdf-metadata";
import type { CertificateGrade, CertificatePdfInput, CertificatePdfSection } from "./certificate-pdf-input";

/**
 * The certificate PDF: one A4 document (normally two pages) a buyer of the used car can read without
 * knowing FDP — grade with its meaning, the headline figures, the certified sections as tables, and
 * how to check it (verify URL as text and QR code, the hash, the dates).
 *
 * Rendering is deterministic: the same input gives the same bytes. The creation date is the
 * certificate's `generated_at`, every other Info field is derived from the input, pdfkit derives the
 * trailer /ID from the Info dictionary (an MD5 of its values, no clock, no randomness), fonts are
 * local files and number/date formatting does not depend on the process locale. The PDF is signed
 * afterwards (lib/certificates/signing/pades.ts), where the private key is.
 */

/** Badge colours, green to red; white text passes contrast on each. */
const GRADE_COLOUR: Record<CertificateGrade, string> = { A: "#15803d", B: "#4d7c0f", C: "#a16207", D: "#c2410c", F: "#b91c1c" };

/** The scale printed next to the badge, so a reader can place any grade without a manual. */
const GRADE_MEANING: Record<CertificateGrade, string> = {
  A: "Excellent condition",
  B: "Good condition",
  C: "Fair condition",
  D: "Poor condition",
  F: "Failing condition",
};

const PDF_AUTHOR = "FDP - Fleet Data Products";
const PDF_CREATOR = "FDP certificate service";
const PDF_PRODUCER = "FDP certificate service (@react-pdf/renderer)";
const pdfTitle = (certificateNumber: string) => `FDP Vehicle Certificate ${certificateNumber}`;

const s = StyleSheet.create({
  ...brandStyles,
  page: { fontFamily: SANS, fontSize: 9.5, color: BRAND.ink, paddingTop: BAND_HEIGHT + 18, paddingBottom: 48, paddingHorizontal: 0, backgroundColor: "#ffffff" },
  body: { paddingHorizontal: 36 },
  gradeRow: { flexDirection: "row", alignItems: "center", marginBottom: 14 },
  badge: { width: 64, height: 64, borderRadius: 10, alignItems: "center", justifyContent: "center", marginRight: 16 },
  badgeLetter: { fontSize: 38, fontWeight: 700, color: "#ffffff" },
  gradeLabel: { fontSize: 8, color: BRAND.muted, textTransform: "uppercase", letterSpacing: 0.8 },
  gradeMeaning: { fontSize: 15, fontWeight: 600, marginTop: 2 },
  gradeExplanation: { fontSize: 10, color: BRAND.muted, marginTop: 3, maxWidth: 420 },
  vehicleBox: { borderWidth: 1, borderColor: BRAND.line, borderRadius: 6, padding: 10, marginBottom: 12, backgroundColor: BRAND.paper },
  vehicleName: { fontSize: 13, fontWeight: 600, marginBottom: 5 },
  kvRow: { flexDirection: "row", flexWrap: "wrap" },
  kv: { width: "33%", marginBottom: 4 },
  kvLabel: { fontSize: 7.5, color: BRAND.muted, textTransform: "uppercase", letterSpacing: 0.5 },
  kvValue: { fontSize: 9.5, marginTop: 1 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: BRAND.line, paddingVertical: 4 },
  rowLabel: { width: "42%", color: BRAND.muted, paddingRight: 8 },
  rowValueCell: { width: "58%" },
  rowValue: { fontWeight: 500 },
  rowNote: { fontSize: 7.5, color: BRAND.muted, marginTop: 1.5 },
  verifyBox: { flexDirection: "row", borderWidth: 1, borderColor: BRAND.accent, borderRadius: 6, padding: 12, marginTop: 4 },
  verifyText: { flexGrow: 1, flexBasis: 0, paddingLeft: 14 },
  verifyTitle: { fontSize: 11, fontWeight: 600, marginBottom: 4 },
  mono: { fontFamily: MONO, fontSize: 8 },
  para: { fontSize: 8.5, color: BRAND.ink, marginTop: 6, lineHeight: 1.35 },
  idBlock: { borderWidth: 0.5, borderColor: BRAND.line, borderRadius: 4, padding: 8, marginTop: 8, backgroundColor: BRAND.paper },
  idTitle: { fontSize: 8, fontWeight: 600, marginBottom: 4 },
  idRow: { marginBottom: 3 },
  idLabel: { fontSize: 6.5, color: BRAND.muted, textTransform: "uppercase", letterSpacing: 0.4 },
  idValue: { fontFamily: MONO, fontSize: 6.5 },
});

/** The same words the certificate generator uses for an unknown figure. */
const NOT_AVAILABLE = "not known";
const fmt = (n: number | null, fractionDigits = 0) => (n === null ? NOT_AVAILABLE : groupDigits(n, fractionDigits));

/** `2026-11-24T01:11:04Z` → `2026-11-24 01:11 UTC`, in UTC whatever the offset given. */
function formatCertificateDate(rfc3339: string): string {
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) throw new Error(`certificate PDF: not an RFC 3339 date: ${rfc3339}`);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** The QR code as one vector path (a run of dark modules per rectangle): sharp at any zoom, small. */
export function qrPath(text: string): { size: number; d: string } {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const { size, data } = qr.modules;
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size;) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      let run = 1;
      while (col + run < size && data[row * size + col + run]) run++;
      parts.push(`M${col} ${row}h${run}v1h-${run}z`);
      col += run;
    }
  }
  return { size, d: parts.join("") };
}

function QrCode({ text, width }: { text: string; width: number }) {
  const { size, d } = qrPath(text);
  const quiet = 4; // the quiet zone the QR standard asks for, in modules
  return (
    <Svg width={width} height={width} viewBox={`${-quiet} ${-quiet} ${size + 2 * quiet} ${size + 2 * quiet}`}>
      <Path d={d} fill="#000000" />
    </Svg>
  );
}

/**
 * One identifier on its own line in the monospace block, never hyphenated or split with an inserted
 * character, so that it copies exactly; a value longer than a line is cut into whole lines only
 * (the JWS's two parts each fit one).
 */
function Identifier({ label, value }: { label: string; value: string }) {
  return (
    <View style={s.idRow} wrap={false}>
      <Text style={s.idLabel}>{label}</Text>
      {(value.match(new RegExp(`.{1,${IDENTIFIER_LINE_CHARS}}`, "g")) ?? [value]).map((line, i) => (
        <Text key={i} style={s.idValue}>
          {line}
        </Text>
      ))}
    </View>
  );
}

/** Characters of Geist Mono at 6.5 pt (0.6 em each) on the 523 pt text width of A4 with 36 pt margins. */
const IDENTIFIER_LINE_CHARS = 128;

function Field({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <View style={s.kv}>
      <Text style={s.kvLabel}>{label}</Text>
      <Text style={mono ? [s.kvValue, s.mono] : s.kvValue}>{value}</Text>
    </View>
  );
}

function Section({ section }: { section: CertificatePdfSection }) {
  return (
    <View style={s.section}>
      <Text style={s.sectionTitle} minPresenceAhead={40}>
        {section.title}
      </Text>
      {section.rows.map((row, i) => (
        <View key={i} style={s.row} wrap={false}>
          <Text style={s.rowLabel}>{row.label}</Text>
          <View style={s.rowValueCell}>
            <Text style={s.rowValue}>{row.value}</Text>
            {row.note ? <Text style={s.rowNote}>{row.note}</Text> : null}
          </View>
        </View>
      ))}
    </View>
  );
}

function CertificateDocument({ input, keywords }: { input: CertificatePdfInput; keywords: string }) {
  const { vehicle, headline } = input;
  const makeModel = [vehicle.make, vehicle.model].filter((v): v is string => v !== null && v !== "").join(" ");
  return (
    <Document
      title={pdfTitle(input.certificate_number)}
      author={PDF_AUTHOR}
      subject={`Vehicle condition certificate ${input.certificate_number}. Verify it at ${input.verify_url}`}
      keywords={keywords}
      creator={PDF_CREATOR}
      producer={PDF_PRODUCER}
      creationDate={new Date(input.generated_at)}
      language="en"
    >
      <Page size="A4" style={s.page}>
        <BrandBand title="Vehicle Condition Certificate" sub={input.certificate_number} />

        <View style={s.body}>
          <View style={s.gradeRow} wrap={false}>
            <View style={[s.badge, { backgroundColor: GRADE_COLOUR[input.grade] }]}>
              <Text style={s.badgeLetter}>{input.grade}</Text>
            </View>
            <View>
              <Text style={s.gradeLabel}>Overall grade (A best, F worst)</Text>
              <Text style={s.gradeMeaning}>
                Grade {input.grade}: {GRADE_MEANING[input.grade]}
              </Text>
              <Text style={s.gradeExplanation}>{input.grade_explanation}</Text>
            </View>
          </View>

          <View style={s.vehicleBox} wrap={false}>
            <Text style={s.vehicleName}>{vehicle.name}</Text>
            <View style={s.kvRow}>
              <Field label="VIN" value={vehicle.vin ?? NOT_AVAILABLE} mono />
              <Field label="Make and model" value={makeModel || NOT_AVAILABLE} />
              <Field label="Model year" value={vehicle.model_year === null ? NOT_AVAILABLE : String(vehicle.model_year)} />
              <Field label="Powertrain" value={vehicle.powertrain ?? NOT_AVAILABLE} />
              <Field label="Device id" value={input.device_id} mono />
              <Field label="Valid" value={`${formatCertificateDate(input.generated_at).slice(0, 10)} to ${formatCertificateDate(input.expires_at).slice(0, 10)}`} />
            </View>
          </View>

          <View style={s.tiles} wrap={false}>
            <Tile missing={NOT_AVAILABLE} label="Vehicle health" value={fmt(headline.vehicle_health_score)} unit="/ 100" />
            <Tile missing={NOT_AVAILABLE} label="Battery health (SoH)" value={fmt(headline.battery_soh_pct, 1)} unit="%" />
            <Tile missing={NOT_AVAILABLE} label="Residual value" value={fmt(headline.residual_value_pct, 1)} unit="% of new" />
            <Tile missing={NOT_AVAILABLE} label="Odometer" value={fmt(headline.odometer_km)} unit="km" last />
          </View>

          {input.sections.map((section, i) => (
            <Section key={i} section={section} />
          ))}

          <View style={s.verifyBox} wrap={false}>
            <QrCode text={input.verify_url} width={104} />
            <View style={s.verifyText}>
              <Text style={s.verifyTitle}>Check that this certificate is genuine</Text>
              <Text style={s.mono}>{input.verify_url}</Text>
              <Text style={[s.kvLabel, { marginTop: 6 }]}>Issued / valid until</Text>
              <Text>
                {formatCertificateDate(input.generated_at)} / {formatCertificateDate(input.expires_at)}
              </Text>
              <Text style={s.para}>
                Scan the code or open the address above: FDP&apos;s page shows whether this certificate is valid, expired or revoked, with the same figures and fingerprint as
                printed here. This file carries a standard PDF signature (PAdES) over every byte: a PDF reader shows it, any change breaks it, and its signing certificate is the
                one FDP publishes (fingerprint below). The certified data carry a JWS that any JOSE library checks with FDP&apos;s published key.
              </Text>
            </View>
          </View>

          <View style={s.idBlock} wrap={false}>
            <Text style={s.idTitle}>Identifiers (each exactly as printed, one per line)</Text>
            <Identifier label="Certificate number" value={input.certificate_number} />
            <Identifier label="Certificate fingerprint: verify_hash (SHA-256 of the certified data)" value={input.verify_hash} />
            <Identifier label="Signing key id (kid)" value={input.signing.kid} />
            <Identifier label="JWS protected header (the JWS is header..signature)" value={input.signing.jws.split(".")[0] ?? ""} />
            <Identifier label="JWS signature" value={input.signing.jws.split(".")[2] ?? ""} />
            <Identifier label="PDF signing certificate (SHA-256 of its DER)" value={input.signing.pdf_certificate_sha256} />
          </View>
        </View>

        <PageFooter label={input.certificate_number} />
      </Page>
    </Document>
  );
}

/** Renders the certificate, not yet signed (lib/certificates/signing/pades.ts signs it). */
export async function renderCertificatePdf(input: CertificatePdfInput): Promise<Buffer> {
  registerCertificateFonts();
  const keywords = buildCertificateKeywords({
    certificate_number: input.certificate_number,
    verify_hash: input.verify_hash,
    generated_at: new Date(input.generated_at).toISOString().replace(".000Z", "Z"),
    kid: input.signing.kid,
  });
  const pdf = await renderToBuffer(<CertificateDocument input={input} keywords={keywords} />);
  // Offline checkers read the fields from the bytes: the Keywords string must be in the file verbatim.
  if (pdf.indexOf(`(${keywords})`, 0, "latin1") === -1) {
    throw new Error("certificate PDF: the Keywords metadata was not written literally");
  }
  return pdf;
}
