import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEAL_MARKER } from "@/lib/certificates/pdf/certificate-pdf-metadata";
import { keysDocumentSchema, publicKeyFromJwk } from "@/lib/certificates/pdf/keys-document";
import { qrPath, renderCertificatePdf, renderSealedCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { sealCertificatePdf, verifyCertificatePdf } from "@/lib/certificates/pdf/seal-certificate-pdf";
import { certificatePdfInput, keysDocument, makeTestKey } from "@/tests/helpers/certificate-pdf-fixture";

/**
 * The certificate PDF end to end on real bytes: rendered by @react-pdf/renderer, checked by poppler
 * (pdfinfo, pdftotext) and qpdf, sealed with a throwaway Ed25519 key and verified offline.
 */

const key1 = makeTestKey("fdp-test-1");
const key2 = makeTestKey("fdp-test-2");
const input = certificatePdfInput();
const dir = mkdtempSync(path.join(tmpdir(), "fdp-certificate-pdf-"));

let unsealed: Buffer;
let sealed: Buffer;

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

const sealDigitsAt = (pdf: Buffer) => {
  const text = pdf.toString("latin1");
  const at = text.indexOf(SEAL_MARKER);
  return at + SEAL_MARKER.length + text.slice(at + SEAL_MARKER.length).indexOf(":") + 1;
};

beforeAll(async () => {
  unsealed = await renderCertificatePdf(input);
  sealed = sealCertificatePdf(unsealed, key1.signer);
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
    // The metadata an offline tool reads: number, hash, content signature, seal.
    const keywords = /^Keywords:\s+(.*)$/m.exec(info.stdout)?.[1];
    expect(keywords).toContain(`number=${input.certificate_number}`);
    expect(keywords).toContain(`verify_hash=${input.verify_hash}`);
    expect(keywords).toContain(`content_sig=${input.content_signature.kid}:${input.content_signature.value}`);
    expect(keywords).toMatch(/fdp-pdf-seal:v1:fdp-test-1:[0-9a-f]{128}$/);
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
      input.verify_hash.slice(0, 32),
      input.verify_hash.slice(32),
      "2026-11-24 01:11 UTC",
      "2027-05-23 01:11 UTC",
      "Check that this certificate is genuine",
      "npm run verify-certificate",
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Thousands grouped with a no-break space (pdftotext prints it as a plain space).
    expect(text).toMatch(/61\s234\s+km/);
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
    expect(sealCertificatePdf(again, key1.signer).equals(sealed)).toBe(true); // Ed25519 signatures are deterministic
    const later = await renderCertificatePdf(certificatePdfInput({ generated_at: "2026-11-24T01:11:05Z" }));
    expect(later.equals(unsealed)).toBe(false);
  });

  it("refuses metadata that could not travel literally in the PDF", async () => {
    await expect(renderCertificatePdf(certificatePdfInput({ verify_hash: "ABC" }))).rejects.toThrow(/verify_hash/);
    await expect(
      renderCertificatePdf(certificatePdfInput({ content_signature: { kid: "bad kid)", alg: "Ed25519", value: "x" } })),
    ).rejects.toThrow(/content_signature.kid/);
  });
});

describe("certificate PDF seal", () => {
  const keys = keysDocument(key1.jwk, key2.jwk);

  it("verifies the sealed PDF and returns the certified fields", () => {
    expect(verifyCertificatePdf(sealed, keys)).toEqual({
      ok: true,
      certificate_number: input.certificate_number,
      verify_hash: input.verify_hash,
      kid: "fdp-test-1",
      key_status: "active",
      content_signature: input.content_signature,
    });
  });

  it("changes only the 128 seal digits, in place (same length, so xref offsets stay valid)", () => {
    expect(sealed.length).toBe(unsealed.length);
    const at = sealDigitsAt(sealed);
    const differing = [...sealed.keys()].filter((i) => sealed[i] !== unsealed[i]);
    expect(differing.length).toBeGreaterThan(100);
    expect(Math.min(...differing)).toBeGreaterThanOrEqual(at);
    expect(Math.max(...differing)).toBeLessThan(at + 128);
  });

  it("rejects one changed byte at the start, in a content stream, in the Info dict, the seal, the xref and the end", () => {
    const text = sealed.toString("latin1");
    const positions: Record<string, number> = {
      "first byte": 0,
      "middle of the page content stream": pageContentStreamMiddle(sealed),
      "Info title": text.indexOf("(FDP Vehicle Certificate") + 5,
      "verify_hash in the Keywords": text.indexOf("verify_hash=") + "verify_hash=".length + 3,
      "first signature digit": sealDigitsAt(sealed),
      "last signature digit": sealDigitsAt(sealed) + 127,
      "seal key id": text.indexOf(SEAL_MARKER) + SEAL_MARKER.length + 2,
      "xref table": text.lastIndexOf("\nxref\n") + 30,
      "last byte": sealed.length - 1,
    };
    for (const [where, offset] of Object.entries(positions)) {
      expect(offset, where).toBeGreaterThanOrEqual(0);
      const result = verifyCertificatePdf(flipped(sealed, offset), keys);
      expect(result.ok, where).toBe(false);
    }
    // A signature digit changed to another lowercase hex digit is a real signature mismatch.
    const digit = sealDigitsAt(sealed) + 10;
    const otherDigit = Buffer.from(sealed);
    otherDigit[digit] = otherDigit[digit] === 0x30 ? 0x31 : 0x30;
    expect(verifyCertificatePdf(otherDigit, keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/^signature mismatch/) });
    // A hex letter upper-cased would decode to the same bytes: the seal only accepts lowercase.
    const letterAt = [...sealed.subarray(sealDigitsAt(sealed), sealDigitsAt(sealed) + 128)].findIndex((b) => b >= 0x61);
    const upper = Buffer.from(sealed);
    upper[sealDigitsAt(sealed) + letterAt] = upper[sealDigitsAt(sealed) + letterAt]! - 0x20;
    expect(verifyCertificatePdf(upper, keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/^malformed/) });
  });

  it("rejects a byte changed anywhere (sweep over the whole file) and one byte appended", () => {
    const step = Math.max(1, Math.floor(sealed.length / 400));
    for (let offset = 0; offset < sealed.length; offset += step) {
      expect(verifyCertificatePdf(flipped(sealed, offset, 0x20), keys).ok, `offset ${offset}`).toBe(false);
    }
    const appended = Buffer.concat([sealed, Buffer.from("\n")]);
    expect(verifyCertificatePdf(appended, keys)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^signature mismatch/),
      certificate_number: input.certificate_number,
    });
  });

  it("rejects a seal whose key id was swapped for another published key", () => {
    const swapped = Buffer.from(sealed.toString("latin1").replace(`${SEAL_MARKER}fdp-test-1:`, `${SEAL_MARKER}fdp-test-2:`), "latin1");
    expect(verifyCertificatePdf(swapped, keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/^signature mismatch/) });
  });

  it("rejects a PDF sealed by someone else under FDP's key id", () => {
    const impostor = makeTestKey("fdp-test-1");
    const forged = sealCertificatePdf(unsealed, impostor.signer);
    expect(verifyCertificatePdf(forged, keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/^signature mismatch/) });
    expect(verifyCertificatePdf(forged, keysDocument(impostor.jwk)).ok).toBe(true); // the same bytes, the right key: accepted
  });

  it("rejects an unknown key id, an unsealed PDF and a PDF without seal", () => {
    expect(verifyCertificatePdf(sealed, keysDocument(key2.jwk))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^unknown key id fdp-test-1/),
      certificate_number: input.certificate_number,
    });
    expect(verifyCertificatePdf(unsealed, keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/^no FDP seal/) });
    const plain = Buffer.from("%PDF-1.3\n%%EOF\n");
    expect(verifyCertificatePdf(plain, keys)).toEqual({ ok: false, reason: "no FDP seal in this PDF" });
    expect(verifyCertificatePdf(Buffer.from("not a pdf"), keys)).toMatchObject({ ok: false, reason: expect.stringMatching(/^malformed/) });
  });

  it("still verifies certificates sealed by a retired key (rotation keeps old keys published)", () => {
    const rotated = keysDocument({ ...key1.jwk, status: "retired", retired_at: "2026-12-01T00:00:00Z" }, key2.jwk);
    expect(keysDocumentSchema.parse(rotated)).toEqual(rotated);
    expect(verifyCertificatePdf(sealed, rotated)).toMatchObject({ ok: true, kid: "fdp-test-1", key_status: "retired" });
  });

  it("seals only a fresh placeholder for the key it was rendered for", async () => {
    expect(() => sealCertificatePdf(sealed, key1.signer)).toThrow(/already sealed/);
    expect(() => sealCertificatePdf(unsealed, key2.signer)).toThrow(/rendered for key fdp-test-1/);
    expect(() => sealCertificatePdf(unsealed, { kid: "fdp-test-1", sign: () => Buffer.alloc(10) })).toThrow(/64-byte/);
    // renderSealedCertificatePdf renders for the signer's key, whatever signed the content.
    const bySecondKey = await renderSealedCertificatePdf(input, key2.signer);
    expect(verifyCertificatePdf(bySecondKey, keys)).toMatchObject({ ok: true, kid: "fdp-test-2", content_signature: { kid: "fdp-test-1" } });
  });

  it("can be checked by hand with openssl: Ed25519 over the file with the seal digits zeroed", () => {
    const at = sealDigitsAt(sealed);
    const message = Buffer.from(sealed);
    message.write("0".repeat(128), at, "latin1");
    const pub = path.join(dir, "pub.pem");
    writeFileSync(pub, publicKeyFromJwk(key1.jwk).export({ type: "spki", format: "pem" }));
    writeFileSync(path.join(dir, "sig.bin"), Buffer.from(sealed.subarray(at, at + 128).toString("latin1"), "hex"));
    const verify = (msg: Buffer) => {
      writeFileSync(path.join(dir, "message.bin"), msg);
      return tool("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", path.join(dir, "message.bin"), "-sigfile", path.join(dir, "sig.bin")]);
    };
    expect(verify(message).stdout).toContain("Signature Verified Successfully");
    expect(verify(flipped(message, 1000)).status).not.toBe(0);
  });
});

describe("published keys document", () => {
  it("accepts the published shape and imports the key", () => {
    const doc = keysDocumentSchema.parse(keysDocument(key1.jwk));
    expect(publicKeyFromJwk(doc.keys[0]!).asymmetricKeyType).toBe("ed25519");
    expect(publicKeyFromJwk(doc.keys[0]!).export({ format: "der", type: "spki" })).toEqual(key1.publicKey.export({ format: "der", type: "spki" }));
  });

  it("rejects what is not an FDP Ed25519 keys document", () => {
    const bad = [
      { issuer: "ACME", keys: [key1.jwk] },
      { issuer: "FDP", keys: [{ ...key1.jwk, crv: "P-256" }] },
      { issuer: "FDP", keys: [{ ...key1.jwk, x: key1.jwk.x.slice(1) }] },
      { issuer: "FDP", keys: [{ ...key1.jwk, status: "revoked" }] },
      { issuer: "FDP", keys: [{ ...key1.jwk, kid: "has space" }] },
      { issuer: "FDP", keys: [{ ...key1.jwk, retired_at: "2026-12-01T00:00:00Z" }] }, // active with a retirement date
      { issuer: "FDP", keys: [key1.jwk, { ...key2.jwk, kid: "fdp-test-1" }] }, // duplicate kid
      { issuer: "FDP", keys: [{ ...key1.jwk, created_at: "yesterday" }] },
    ];
    for (const doc of bad) expect(keysDocumentSchema.safeParse(doc).success, JSON.stringify(doc)).toBe(false);
  });
});
