import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { closeCertificatePdfWorkers, renderCsrdPdfInWorker } from "@/lib/certificates/pdf/render-certificate-pdf-in-worker";
import { CSRD_PDF_SECTION_TITLES, renderCsrdPdf } from "@/lib/reports/pdf/render-csrd-pdf";
import { buildCsrdFixture } from "../../helpers/csrd-fixture";
import { withPdfFile } from "../../helpers/temp-pdf";

/** The CSRD PDF on the constructed fleet: a real document (pdfinfo, qpdf, pdftotext), rendered on the worker pool. */
afterAll(closeCertificatePdfWorkers);

const text = (pdf: Buffer) =>
  withPdfFile(pdf, (file) => {
    execFileSync("qpdf", ["--check", file]); // throws on a damaged file
    return { info: execFileSync("pdfinfo", [file], { encoding: "utf8" }), body: execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }) };
  });

describe("CSRD PDF", () => {
  it("renders the same bytes on the worker pool as in-process, with the sections, the figures and their datapoints", async () => {
    const { report } = buildCsrdFixture(30);
    const inWorker = await renderCsrdPdfInWorker(report);
    expect(inWorker.equals(await renderCsrdPdf(report))).toBe(true);
    const { info, body } = text(inWorker);
    expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBeGreaterThanOrEqual(1);
    expect(info).toMatch(/Title:\s+FDP CSRD climate disclosure 2026-01-01 to 2026-01-31/);
    for (const title of CSRD_PDF_SECTION_TITLES) expect(body).toContain(title);
    // The hand-computed figures of tests/unit/reports/csrd.test.ts, printed to the kg / kWh.
    expect(body).toMatch(/E1-6 §44\(a\)[\s\S]*?0\.069 tCO2e/);
    expect(body).toMatch(/E1-6 §44\(d\), §52\(a\)[\s\S]*?0\.080 tCO2e/);
    expect(body).toMatch(/E1-6 §44\(b\), market-based[\s\S]*?0\.001 tCO2e/);
    expect(body).toMatch(/E1-5 §37[\s\S]*?0\.302 MWh/);
    expect(body).toContain("79.902 kg CO2e");
    expect(body).toContain("2023/2772");
  }, 60_000);

  it("says 'not available' for market-based Scope 2 without a contract factor", async () => {
    const { body } = text(await renderCsrdPdf(buildCsrdFixture(null).report));
    expect(body).toMatch(/no contract factor configured/);
    expect(body).toMatch(/E1-6 §44\(b\), market-based[\s\S]*?not available/);
  }, 60_000);

  it("states the reporting role and its consolidation basis; category 13 'not reported' for an operator, its figure for a lessor", async () => {
    const operator = text(await renderCsrdPdf(buildCsrdFixture(null).report)).body;
    expect(operator).toContain("Reporting role: operator");
    expect(operator).toMatch(/operational\s+control/);
    expect(operator).toMatch(/E1-6 §44\(c\), category 13[\s\S]*?not reported/);
    expect(operator).toMatch(/generation \(combustion\), no upstream/);
    const lessor = text(await renderCsrdPdf(buildCsrdFixture(null, { reportingRole: "lessor" }).report)).body;
    expect(lessor).toContain("Reporting role: lessor");
    expect(lessor).toMatch(/downstream\s+leased\s+assets/);
    // The van and the BEV leased all month: 27.321 kg in category 13, printed to the kg.
    expect(lessor).toMatch(/E1-6 §44\(c\), category 13[\s\S]*?0\.027 tCO2e/);
    expect(lessor).toMatch(/included in the\s+total/);
  }, 60_000);
});
