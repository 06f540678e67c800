import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  certificatePdfWorkerCount,
  certificatePdfWorkerFile,
  certificatePdfWorkerStats,
  closeCertificatePdfWorkers,
  renderCertificatePdfInWorker,
  warmCertificatePdfWorkers,
} from "@/lib/certificates/pdf/render-certificate-pdf-in-worker";
import { renderCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { signPdf } from "@/lib/certificates/signing/pades";
import { verifyCertificatePdf } from "@/lib/certificates/signing/verify-certificate-pdf";
import { certificatePdfInput, keysDocument, makeTestKey } from "@/tests/helpers/certificate-pdf-fixture";

/** The worker-thread pool renders real PDFs on real worker threads (TypeScript loaded through tsx). */

afterAll(closeCertificatePdfWorkers);

describe("certificate PDF worker pool", () => {
  it("renders the same bytes as in-process, for concurrent jobs, and survives a failed job", async () => {
    const key = makeTestKey("fdp-test-1");
    const first = certificatePdfInput();
    const second = certificatePdfInput({ certificate_number: "FDP-CERT-20261124-ZZ99Q", grade: "D" });
    const [a, b] = await Promise.all([renderCertificatePdfInWorker(first), renderCertificatePdfInWorker(second)]);
    expect(a.equals(await renderCertificatePdf(first))).toBe(true);
    expect(b.equals(await renderCertificatePdf(second))).toBe(true);
    const signedB = await signPdf(b, key.pdf, { signingTime: new Date(second.generated_at), reason: "test" });
    expect(verifyCertificatePdf(signedB, keysDocument(key.jwk))).toMatchObject({
      ok: true,
      certificate_number: "FDP-CERT-20261124-ZZ99Q",
    });

    // A render error comes back as a rejection with the renderer's message; the pool keeps working.
    await expect(renderCertificatePdfInWorker(certificatePdfInput({ verify_hash: "nope" }))).rejects.toThrow(/verify_hash/);
    expect((await renderCertificatePdfInWorker(first)).equals(a)).toBe(true);

    // The signing key named in the input reaches the worker's renderer (the metadata names it).
    const forKey2 = await renderCertificatePdfInWorker(certificatePdfInput({ signing: { ...first.signing, kid: "fdp-test-2" } }));
    expect(forKey2.toString("latin1")).toContain(" kid=fdp-test-2)");
  });

  it("starts afresh after being closed, with FDP_PDF_WORKERS workers", async () => {
    await closeCertificatePdfWorkers();
    const previous = process.env.FDP_PDF_WORKERS;
    process.env.FDP_PDF_WORKERS = "2";
    try {
      expect(certificatePdfWorkerStats()).toBeNull();
      await warmCertificatePdfWorkers();
      expect(certificatePdfWorkerStats()).toEqual({ size: 2, workers: 2, busy: 0, queued: 0 });
      const inputs = ["AAAA1", "BBBB2", "CCCC3"].map((suffix) => certificatePdfInput({ certificate_number: `FDP-CERT-20261124-${suffix}` }));
      const pdfs = await Promise.all(inputs.map((input) => renderCertificatePdfInWorker(input)));
      pdfs.forEach((pdf, i) => expect(pdf.toString("latin1")).toContain(`number=${inputs[i]!.certificate_number} `));
      expect(certificatePdfWorkerStats()).toEqual({ size: 2, workers: 2, busy: 0, queued: 0 }); // no worker lost or added
    } finally {
      if (previous === undefined) delete process.env.FDP_PDF_WORKERS;
      else process.env.FDP_PDF_WORKERS = previous;
      await closeCertificatePdfWorkers();
    }
  });

  it("reads its size from FDP_PDF_WORKERS (1–16, default 1) and finds its worker file", () => {
    expect(certificatePdfWorkerCount({})).toBe(1);
    expect(certificatePdfWorkerCount({ FDP_PDF_WORKERS: "" })).toBe(1);
    expect(certificatePdfWorkerCount({ FDP_PDF_WORKERS: "4" })).toBe(4);
    for (const bad of ["0", "17", "2.5", "-1", "two"]) {
      expect(() => certificatePdfWorkerCount({ FDP_PDF_WORKERS: bad }), bad).toThrow(/FDP_PDF_WORKERS/);
    }
    expect(certificatePdfWorkerFile()).toMatch(/lib\/certificates\/pdf\/render-certificate-pdf-worker\.ts$/);
    expect(certificatePdfWorkerFile(`${process.cwd()}/lib/certificates`)).toBe(certificatePdfWorkerFile());
  });

  it("takes the self-host build's compiled worker where there is one, the TypeScript file elsewhere", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdp-worker-file-"));
    try {
      const stem = path.join(dir, "lib", "certificates", "pdf", "render-certificate-pdf-worker");
      mkdirSync(path.dirname(stem), { recursive: true });
      writeFileSync(`${stem}.ts`, "");
      expect(certificatePdfWorkerFile(path.join(dir, "lib"))).toBe(`${stem}.ts`);
      writeFileSync(`${stem}.mjs`, "");
      expect(certificatePdfWorkerFile(dir)).toBe(`${stem}.mjs`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
