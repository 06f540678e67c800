import { formatDate, formatKm, formatPct, formatScore } from "@/lib/display/format";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { certificateWords } from "@/lib/certificates/certificate-pdf";
import { KEYS_PATH, SIGNING_CERTIFICATES_PATH } from "@/lib/certificates/signing/keys-document";
import { verifyCertificate } from "@/lib/certificates/verify-certificate";
import { getDb } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { rootLogger } from "@/lib/log/logger";
import { CERTIFICATE_NUMBER_PATTERN, type CertificateVerification } from "@/lib/schemas/certificates";
import { checkDroppedPdf } from "./actions";
import { PdfCheckForm } from "./pdf-check";

/**
 * The public verify page for auditors and buyers (CONTRACT "Certificates and verification"): the
 * status in one word ("Valid", "Expired", "Revoked"), and the certified facts in the same words as the
 * PDF (the rows come from the same function), nothing the certificate does not state. Rate limited per
 * client IP by server.ts, in one budget with the JSON twin.
 */

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ number: string }> };

async function load(number: string): Promise<CertificateVerification> {
  if (!CERTIFICATE_NUMBER_PATTERN.test(number)) notFound();
  try {
    return await verifyCertificate({ ctx: { db: await getDb(), log: rootLogger() }, input: { certificate_number: number } });
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { number } = await params;
  return { title: `Verify ${number} — FDP`, robots: { index: false } };
}

const day = (iso: string) => formatDate(iso);

const STATUS = {
  valid: { word: "Valid", tone: "border-green-600 bg-green-50 text-green-900" },
  expired: { word: "Expired", tone: "border-amber-500 bg-amber-50 text-amber-900" },
  revoked: { word: "Revoked", tone: "border-red-600 bg-red-50 text-red-900" },
  invalid: { word: "Not valid", tone: "border-red-600 bg-red-50 text-red-900" },
} as const;

function statusSentence(c: CertificateVerification): string {
  if (c.status === "revoked" && c.revoked_at !== null)
    return `FDP revoked this certificate on ${day(c.revoked_at)}. Reason: ${c.revocation_reason ?? "not given"}. Do not rely on it.`;
  if (c.status === "revoked")
    return `FDP revoked the key that signed this certificate (${c.status_reason ?? "no reason given"}): nothing that key signed can be relied on. Do not rely on it.`;
  if (c.status === "invalid") return `This certificate's signature is not valid: ${c.status_reason ?? "its signing key was not valid when it was issued"}. Do not rely on it.`;
  if (c.status === "expired") return `This certificate expired on ${day(c.expires_at)}. It described the vehicle as of ${day(c.generated_at)}; ask for a new one.`;
  return `Issued by FDP on ${day(c.generated_at)}, valid until ${day(c.expires_at)}. The facts below are exactly what the certificate states.`;
}

export default async function VerifyPage({ params }: Params) {
  const { number } = await params;
  const c = await load(number);
  const words = certificateWords(c);
  const status = STATUS[c.status];
  const check = checkDroppedPdf.bind(null, c.certificate_number);

  return (
    <main className="mx-auto max-w-3xl px-6 py-10">
      <p className="text-sm font-medium uppercase tracking-wide text-slate-500">FDP · Certificate verification</p>
      <h1 className="mt-1 font-mono text-2xl font-bold">{c.certificate_number}</h1>

      <section data-testid="certificate-status" data-status={c.status} className={`mt-6 rounded-lg border-l-4 p-5 ${status.tone}`}>
        <p className="text-3xl font-bold">{status.word}</p>
        <p className="mt-1">{statusSentence(c)}</p>
      </section>

      <section className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {[
          ["Grade", c.grade],
          ["Vehicle health", formatScore(c.vehicle_health_score)],
          ["Residual value", formatPct(c.residual_value_pct, 1, "not estimated")],
          ["Odometer", formatKm(words.headline.odometer_km, "not known")],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg bg-white p-4 shadow-sm">
            <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
            <p className="mt-1 text-xl font-semibold">{value}</p>
          </div>
        ))}
      </section>
      <p className="mt-3 text-slate-600">
        Grade {c.grade}: {words.grade_explanation} Vehicle {words.vehicle.name}
        {words.vehicle.vin ? `, VIN ${words.vehicle.vin}` : ""}.
      </p>

      {words.sections.map((section) => (
        <section key={section.title} className="mt-8">
          <h2 className="text-lg font-semibold">{section.title}</h2>
          <table className="mt-2 w-full border-collapse text-sm">
            <tbody>
              {section.rows.map((row) => (
                <tr key={row.label} className="border-b border-slate-200 align-top">
                  <th scope="row" className="w-1/3 py-2 pr-4 text-left font-medium text-slate-600">
                    {row.label}
                  </th>
                  <td className="py-2">
                    {row.value}
                    {row.note ? <span className="mt-1 block text-xs text-slate-500">{row.note}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}

      <section className="mt-10">
        <h2 className="text-lg font-semibold">Is my PDF the authentic one?</h2>
        <p className="mt-1 text-sm text-slate-600">
          Every FDP certificate PDF carries a standard PDF signature (PAdES) over all of its bytes; your PDF reader shows it too. Drop your copy to check that it is this
          certificate, unaltered, signed by a key FDP publishes.
        </p>
        <div className="mt-3">
          <PdfCheckForm check={check} />
        </div>
      </section>

      <section className="mt-10 rounded-lg bg-white p-5 text-sm shadow-sm">
        <h2 className="text-base font-semibold">Check it yourself</h2>
        <dl className="mt-3 space-y-2 break-all">
          <div>
            <dt className="text-slate-500">Verify hash (SHA-256 of the RFC 8785 canonical JSON of the certified content)</dt>
            <dd className="font-mono" data-testid="verify-hash">
              {c.verify_hash}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Signing key id</dt>
            <dd className="font-mono" data-testid="key-id">
              {c.key_id}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">
              {c.jws ? "JWS (compact, detached payload: the canonical JSON above; alg EdDSA)" : `Signature (Ed25519 over the canonical JSON, a certificate from before JWS)`}
            </dt>
            <dd className="font-mono" data-testid="jws">
              {c.jws ?? c.signature.value}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">SHA-256 of the PDF as issued</dt>
            <dd className="font-mono">{c.pdf_sha256}</dd>
          </div>
        </dl>
        <p className="mt-3">
          Without any FDP tool: open the PDF in a reader that shows signatures (Adobe Acrobat Reader&apos;s signature panel, or poppler&apos;s pdfsig) and check that it names the
          signing certificate published below; or verify the JWS above with any JOSE library (RFC 7515, EdDSA) against the public key with this key id. The certified content as
          JSON:{" "}
          <a className="text-brand-700 underline" href={`/api/v1/certificates/${c.certificate_number}/verify`}>
            /api/v1/certificates/{c.certificate_number}/verify
          </a>
          . Public keys (JWK, with each key&apos;s validity):{" "}
          <a className="text-brand-700 underline" href={KEYS_PATH}>
            {KEYS_PATH}
          </a>
          ; the certificates that sign the PDFs:{" "}
          <a className="text-brand-700 underline" href={SIGNING_CERTIFICATES_PATH}>
            {SIGNING_CERTIFICATES_PATH}
          </a>
          .
        </p>
      </section>
    </main>
  );
}
