import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qrPath, renderCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { keysDocumentSchema, keyValidityAt } from "@/lib/certificates/signing/keys-document";
import { cmsSignDetached, signPdf, verifyPdfSignature } from "@/lib/certificates/signing/pades";
import { createPdfSigningCertificate } from "@/lib/certificates/signing/pdf-signing-certificate";
import { verifyCertificatePdf } from "@/lib/certificates/signing/verify-certificate-pdf";
import { certificatePdfInput, keysDocument, makeTestKey } from "@/tests/helpers/certificate-pdf-fixture";

/**
 * The certificate PDF end to end on real bytes: rendered by @react-pdf/renderer, checked by poppler
 * (pdfinfo, pdftotext, pdfsig) and qpdf, signed (PAdES) with a throwaway key and verified offline.
 */

const key1 = makeTestKey("fdp-test-1");
const key2 = makeTestKey("fdp-test-2");
const input = certificatePdfInput({ signing: { ...certificatePdfInput().signing, pdf_certificate_sha256: key1.pdfCertificateSha256 } });
const dir = mkdtempSync(path.join(tmpdir(), "fdp-certificate-pdf-"));

let unsealed: Buffer;
let sealed: Buffer;
const SIGNED_AT = new Date("2026-11-24T01:11:04Z");
const sign = (pdf: Buffer, key = key1) => signPdf(pdf, key.pdf, { signingTime: SIGNED_AT, reason: "test" });

function tool(command: string, args: string[]) {
  const run = spawnSync(command, args, { encoding: "utf8" });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function writePdf(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** The byte at `offset` changed (by XOR, so it is always different). */
function flipped(pdf: Buffer, offset: number, mask = 0x01): Buffer {
  const copy = Buffer.from(pdf);
  copy[offset] = copy[offset]! ^ mask;
  return copy;
}

/** Offset of the middle of the page's content stream (`/Contents n 0 R` → `n 0 obj ... stream ... endstream`). */
function pageContentStreamMiddle(pdf: Buffer): number {
  const text = pdf.toString("latin1");
  const contents = /\/Contents (\d+) 0 R/.exec(text);
  expect(contents).not.toBeNull();
  const objAt = text.indexOf(`\n${contents![1]} 0 obj`);
  const start = text.indexOf("stream\n", objAt) + "stream\n".length;
  const end = text.indexOf("\nendstream", start);
  expect(objAt).toBeGreaterThan(0);
  expect(end - start).toBeGreaterThan(100);
  return Math.floor((start + end) / 2);
}

beforeAll(async () => {
  unsealed = await renderCertificatePdf(input);
  sealed = await sign(unsealed);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("certificate PDF rendering", () => {
  it("is a PDF that pdfinfo and qpdf --check accept, with the certificate's metadata", () => {
    const file = writePdf("sealed.pdf", sealed);
    const info = tool("pdfinfo", [file]);
    expect(info.status, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/^Title:\s+FDP Vehicle Certificate FDP-CERT-20261124-AB12C$/m);
    expect(info.stdout).toMatch(/^Author:\s+FDP - Fleet Data Products$/m);
    expect(info.stdout).toMatch(/^Page size:\s+595.* x 841.* \(A4\)$/m);
    // The metadata an offline tool reads: number, hash, date, key.
    const keywords = /^Keywords:\s+(.*)$/m.exec(info.stdout)?.[1];
    expect(keywords).toBe(`fdp-certificate:v2 number=${input.certificate_number} verify_hash=${input.verify_hash} generated_at=2026-11-24T01:11:04Z kid=fdp-test-1`);
    // Creation date is generated_at (pdfinfo -isodates prints it in ISO form).
    expect(tool("pdfinfo", ["-isodates", file]).stdout).toMatch(/^CreationDate:\s+2026-11-24T01:11:04(Z|\+00)/m);

    const check = tool("qpdf", ["--check", file]);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain("No syntax or stream encoding errors found");
  });

  it("prints what a non-expert needs: grade and its meaning, figures, sections, verify URL, hash, dates", () => {
    const text = tool("pdftotext", [writePdf("text.pdf", sealed), "-"]).stdout;
    for (const expected of [
      "Vehicle Condition Certificate",
      "Fleet Data Products",
      input.certificate_number,
      "Grade B: Good condition",
      input.grade_explanation,
      "Škoda Enyaq iV 80",
      "TMBJB9NY4MF012345",
      "91.4",
      "54.3",
      "OEM BMS readout; SoH = usable capacity / rated capacity",
      "FDP estimate, ±2.1 kWh (95 % band)",
      "Versions",
      "tas-2027.01",
      input.verify_url,
      "2026-11-24 01:11 UTC",
      "2027-05-23 01:11 UTC",
      "Check that this certificate is genuine",
      "(PAdES)",
      "Identifiers (each exactly as printed, one per line)",
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Thousands grouped with a comma, as on the dashboard and the verify page (lib/display/format.ts).
    expect(text).toMatch(/61,234\s+km/);
  });

  it("prints 'not known' for unknown figures instead of a made-up value", async () => {
    const sparse = certificatePdfInput({
      headline: { vehicle_health_score: null, residual_value_pct: null, odometer_km: null, battery_soh_pct: null },
      vehicle: { name: "sbx-009", vin: null, make: null, model: null, model_year: null, powertrain: null },
      grade: "F",
      sections: [],
    });
    const text = tool("pdftotext", [writePdf("sparse.pdf", await renderCertificatePdf(sparse)), "-"]).stdout;
    expect(text).toContain("Grade F: Failing");
    expect(text.match(/not known/g)?.length).toBeGreaterThanOrEqual(8); // 4 vehicle fields + 4 headline tiles
  });

  it("draws the QR code of the verify URL module for module", () => {
    const { size, d } = qrPath(input.verify_url);
    const modules = QRCode.create(input.verify_url, { errorCorrectionLevel: "M" }).modules;
    expect(size).toBe(modules.size);
    const drawn = new Uint8Array(size * size);
    for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
      const [col, row, run] = [Number(m[1]), Number(m[2]), Number(m[3])];
      expect(Number(m[4])).toBe(run);
      for (let c = col; c < col + run; c++) drawn[row * size + c] = 1;
    }
    expect(Array.from(drawn)).toEqual(Array.from(modules.data, (bit) => (bit ? 1 : 0)));
  });

  it("is deterministic: the same input gives the same bytes, a different one different bytes", async () => {
    const again = await renderCertificatePdf(input);
    expect(again.equals(unsealed)).toBe(true);
    // RSA PKCS#1 v1.5 signatures are deterministic too: the same signed bytes at the same signing time.
    expect((await sign(again)).equals(sealed)).toBe(true);
    const later = await renderCertificatePdf(certificatePdfInput({ generated_at: "2026-11-24T01:11:05Z" }));
    expect(later.equals(unsealed)).toBe(false);
  });

  it("refuses metadata that could not travel literally in the PDF", async () => {
    await expect(renderCertificatePdf(certificatePdfInput({ verify_hash: "ABC" }))).rejects.toThrow(/verify_hash/);
    await expect(renderCertificatePdf(certificatePdfInput({ signing: { ...input.signing, kid: "bad kid)" } }))).rejects.toThrow(/kid/);
  });
});

describe("identifiers on the PDF copy exactly", () => {
  it("prints each identifier whole on its own line, with no inserted space or hyphen", () => {
    const lines = tool("pdftotext", ["-layout", writePdf("ids.pdf", sealed), "-"])
      .stdout.split("\n")
      .map((l) => l.trim());
    const [header, , signature] = input.signing.jws.split(".");
    for (const id of [input.verify_hash, input.signing.kid, header!, signature!, input.signing.pdf_certificate_sha256, input.certificate_number]) {
      expect(lines, id).toContain(id);
    }
    const text = tool("pdftotext", [writePdf("ids-raw.pdf", sealed), "-"]).stdout;
    expect(text).not.toMatch(/[0-9a-f]{8}-\n[0-9a-f]/); // no hyphenation of the hex identifiers
  });
});

describe("certificate PDF signature (PAdES)", () => {
  const keys = keysDocument(key1.jwk, key2.jwk);

  it("poppler's pdfsig reports it valid: ETSI.CAdES.detached, SHA-256, the whole document signed, by FDP's certificate", () => {
    const out = tool("pdfsig", [writePdf("signed.pdf", sealed)]).stdout;
    expect(out).toContain("Signature Type: ETSI.CAdES.detached");
    expect(out).toContain("Signing Hash Algorithm: SHA-256");
    expect(out).toContain("Total document signed");
    expect(out).toContain("Signature Validation: Signature is Valid.");
    expect(out).toContain("Signer Certificate Common Name: FDP certificate signing fdp-test-1");
  });

  it("signed with each modulus FDP_PDF_SIGNING_RSA_BITS allows (the keys above are the tests' 2048), it is valid for pdfsig and FDP's own check: a 4096-bit signature fits the room", async () => {
    for (const bits of [3072, 4096] as const) {
      const signer = createPdfSigningCertificate(`fdp-test-${bits}`, SIGNED_AT, bits);
      const signed = await signPdf(unsealed, signer, { signingTime: SIGNED_AT, reason: "test" });
      const out = tool("pdfsig", [writePdf(`signed-${bits}.pdf`, signed)]).stdout;
      expect(out, `${bits}`).toContain("Signature Validation: Signature is Valid.");
      expect(out, `${bits}`).toContain("Total document signed");
      expect(verifyPdfSignature(signed).ok, `${bits}`).toBe(true);
    }
  });

  it("one changed byte anywhere breaks it for pdfsig and for FDP's own check", () => {
    const text = sealed.toString("latin1");
    const contents = text.indexOf("/Contents <");
    const offsets = [10, pageContentStreamMiddle(sealed), text.indexOf("fdp-certificate:v2") + 30, contents - 20, sealed.length - 5];
    for (const at of offsets) {
      const altered = flipped(sealed, at);
      expect(tool("pdfsig", [writePdf(`altered-${at}.pdf`, altered)]).stdout, `offset ${at}`).not.toContain("Signature is Valid");
      expect(verifyPdfSignature(altered).ok, `offset ${at}`).toBe(false);
    }
    // A sweep over the whole file, every 997th byte, the signature value itself included.
    for (let at = 0; at < sealed.length; at += 997) {
      expect(verifyPdfSignature(flipped(sealed, at)).ok, `offset ${at}`).toBe(false);
    }
    expect(verifyPdfSignature(Buffer.concat([sealed, Buffer.from("\n% appended\n")])).ok).toBe(false);
  });

  it("qpdf --check accepts the signed file", () => {
    const check = tool("qpdf", ["--check", writePdf("signed-qpdf.pdf", sealed)]);
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  it("verifies against the published keys and returns the authenticated fields", () => {
    expect(verifyCertificatePdf(sealed, keys)).toEqual({
      ok: true,
      certificate_number: input.certificate_number,
      verify_hash: input.verify_hash,
      generated_at: "2026-11-24T01:11:04Z",
      kid: "fdp-test-1",
      key_status: "active",
      pdf_signing_certificate_sha256: key1.pdfCertificateSha256,
    });
  });

  it("refuses a PDF signed by a certificate FDP does not publish, or by another key than the metadata names", async () => {
    expect(verifyCertificatePdf(await sign(unsealed, key2), keysDocument(key1.jwk))).toMatchObject({
      ok: false,
      status: "invalid",
      reason: expect.stringMatching(/does not publish/),
    });
    expect(verifyCertificatePdf(await sign(unsealed, key2), keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/names key fdp-test-1 but key fdp-test-2 signed/) });
    expect(verifyCertificatePdf(unsealed, keys)).toMatchObject({ ok: false, reason: "no PDF signature in this file" });
  });

  it("a revoked key's certificates verify as revoked; a date outside the key's validity is invalid", () => {
    const revoked = keysDocument({
      ...key1.jwk,
      status: "revoked",
      valid_until: "2026-12-01T00:00:00.000Z",
      revoked_at: "2026-12-01T00:00:00.000Z",
      revocation_reason: "key leaked",
    });
    expect(verifyCertificatePdf(sealed, revoked)).toMatchObject({ ok: false, status: "revoked", reason: expect.stringMatching(/revoked on 2026-12-01: key leaked/) });
    const retiredBefore = keysDocument({ ...key1.jwk, status: "retired", valid_until: "2026-06-01T00:00:00.000Z" });
    expect(verifyCertificatePdf(sealed, retiredBefore)).toMatchObject({ ok: false, status: "invalid", reason: expect.stringMatching(/outside the validity/) });
    const notYet = keysDocument({ ...key1.jwk, valid_from: "2026-11-25T00:00:00.000Z" });
    expect(verifyCertificatePdf(sealed, notYet)).toMatchObject({ ok: false, status: "invalid" });
    // A retired key still verifies what it signed while it was active.
    const retiredAfter = keysDocument({ ...key1.jwk, status: "retired", valid_until: "2026-12-01T00:00:00.000Z" });
    expect(verifyCertificatePdf(sealed, retiredAfter)).toMatchObject({ ok: true, key_status: "retired" });
  });
});

describe("the CMS inside the signature", () => {
  /**
   * A minimal signed file laid out as @signpdf lays it out (the byte range around a zero-padded hex
   * placeholder), so the signature's own bytes can be chosen: `salt` varies the signed bytes.
   */
  function signedFile(salt: number, key = key1): { file: Buffer; cms: Buffer } {
    const placeholderBytes = 8192;
    const head = (a: number, b: number, c: number) =>
      `%PDF-1.3\n% ${salt}\n/ByteRange [0 ${String(a).padStart(10, "0")} ${String(b).padStart(10, "0")} ${String(c).padStart(10, "0")}]\n/Contents `;
    const tail = "\n%%EOF\n";
    const a = head(0, 0, 0).length;
    const b = a + 2 + placeholderBytes * 2;
    const before = Buffer.from(head(a, b, tail.length), "latin1");
    const cms = cmsSignDetached(Buffer.concat([before, Buffer.from(tail, "latin1")]), key.pdf);
    const hex = cms.toString("hex").padEnd(placeholderBytes * 2, "0");
    return { file: Buffer.concat([before, Buffer.from(`<${hex}>${tail}`, "latin1")]), cms };
  }

  it("verifies a signature whose last byte is 0x00 (about 1 in 256: zero padding is not stripped from the CMS)", () => {
    let found: { file: Buffer; cms: Buffer } | undefined;
    for (let salt = 0; salt < 5000 && !found; salt++) {
      const candidate = signedFile(salt);
      if (candidate.cms[candidate.cms.length - 1] === 0) found = candidate;
    }
    expect(found, "no signature ending in 0x00 in 5,000 tries").toBeDefined();
    expect(verifyPdfSignature(found!.file)).toMatchObject({ ok: true, certificate_sha256: key1.pdfCertificateSha256 });
  });

  it("refuses a changed byte inside the signature value: an upper-cased hex digit, padding that is not zero, an unsigned field rewritten", () => {
    const { file, cms } = signedFile(1);
    expect(verifyPdfSignature(file).ok).toBe(true);
    const text = file.toString("latin1");
    const at = text.indexOf("/Contents <") + "/Contents <".length;
    const firstLetter = text.slice(at).search(/[a-f]/);
    const upper = Buffer.from(file);
    upper[at + firstLetter] = upper[at + firstLetter]! - 32;
    expect(verifyPdfSignature(upper)).toMatchObject({ ok: false, reason: "malformed signature contents" });
    const padded = Buffer.from(file);
    padded[at + cms.length * 2 + 10] = "1".charCodeAt(0);
    expect(verifyPdfSignature(padded).ok).toBe(false);
    // The SignedData's version (unsigned) 1 → 3, re-encoded at the same length.
    const versionAt = cms.indexOf(Buffer.from([0x02, 0x01, 0x01]));
    const rewritten = Buffer.from(cms);
    rewritten[versionAt + 2] = 3;
    const swapped = Buffer.from(file.toString("latin1").replace(cms.toString("hex"), rewritten.toString("hex")), "latin1");
    expect(verifyPdfSignature(swapped)).toMatchObject({ ok: false, reason: expect.stringMatching(/not in the form FDP writes/) });
  });
});

describe("key validity rule", () => {
  const key = { kid: "k", status: "retired" as const, valid_from: "2026-01-01T00:00:00.000Z", valid_until: "2026-06-01T00:00:00.000Z" };
  it("valid from valid_from (inclusive) to valid_until (exclusive)", () => {
    expect(keyValidityAt(key, new Date("2026-01-01T00:00:00Z")).ok).toBe(true);
    expect(keyValidityAt(key, new Date("2026-05-31T23:59:59Z")).ok).toBe(true);
    expect(keyValidityAt(key, new Date("2026-06-01T00:00:00Z")).ok).toBe(false);
    expect(keyValidityAt(key, new Date("2025-12-31T23:59:59Z")).ok).toBe(false);
    expect(keyValidityAt({ ...key, status: "active", valid_until: null }, new Date("2030-01-01T00:00:00Z")).ok).toBe(true);
    expect(keyValidityAt(undefined, new Date())).toMatchObject({ ok: false, status: "invalid" });
  });
});

describe("published keys document", () => {
  it("accepts the published shape", () => {
    expect(keysDocumentSchema.safeParse(keysDocument(key1.jwk, { ...key2.jwk, status: "retired", valid_until: "2026-06-01T00:00:00.000Z" })).success).toBe(true);
  });

  it("rejects what is not an FDP keys document with a consistent lifecycle", () => {
    const bad = [
      { issuer: "ACME", keys: [key1.jwk] },
      { issuer: "FDP", keys: [{ ...key1.jwk, crv: "P-256" }] },
      { issuer: "FDP", keys: [{ ...key1.jwk, x: key1.jwk.x.slice(1) }] },
      { issuer: "FDP", keys: [{ ...key1.jwk, status: "revoked" }] }, // revoked without date and reason
      { issuer: "FDP", keys: [{ ...key1.jwk, status: "retired" }] }, // retired without valid_until
      { issuer: "FDP", keys: [{ ...key1.jwk, valid_until: "2026-12-01T00:00:00Z" }] }, // active with an end
      { issuer: "FDP", keys: [{ ...key1.jwk, kid: "has space" }] },
      { issuer: "FDP", keys: [key1.jwk, { ...key2.jwk, kid: "fdp-test-1" }] }, // duplicate kid
      { issuer: "FDP", keys: [key1.jwk, key2.jwk] }, // two active keys
      { issuer: "FDP", keys: [{ ...key1.jwk, valid_from: "yesterday" }] },
    ];
    for (const doc of bad) expect(keysDocumentSchema.safeParse(doc).success, JSON.stringify(doc)).toBe(false);
  });
});
