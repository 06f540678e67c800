import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Download, Page } from "@playwright/test";
import { expect, screenshot, useSession, test } from "./fixtures";

const blocking = (violations: { impact?: string | null; id: string }[]) => violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);

async function bytesOf(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFileSync(file);
}

/** pdfinfo (poppler) accepts the file: a real PDF, not only a %PDF header. */
function pdfinfoAccepts(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fdp-e2e-pdf-"));
  try {
    const file = path.join(dir, "doc.pdf");
    writeFileSync(file, bytes);
    return execFileSync("pdfinfo", [file], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function signedIn(page: Page, path: string): Promise<void> {
  await useSession(page);
  await page.goto(path);
}

test("generate a certificate for a sandbox vehicle, see it listed, view and download it, open its verify page", async ({ page }) => {
  await signedIn(page, "/dashboard/certificates");
  await expect(page.getByRole("heading", { level: 1, name: "Certificates" })).toBeVisible();
  const select = page.getByLabel("Vehicle");
  const first = await select.locator("option:not([disabled])").first().getAttribute("value");
  expect(first).toBeTruthy();
  // `?device=` (the vehicle page's link) preselects the vehicle; an id outside the tenant preselects nothing.
  await page.goto(`/dashboard/certificates?device=${encodeURIComponent(process.env.FDP_E2E_FOREIGN_DEVICE!)}`);
  await expect(page.getByLabel("Vehicle")).toHaveValue("");
  await page.goto(`/dashboard/certificates?device=${encodeURIComponent(first!)}`);
  await expect(page.getByLabel("Vehicle")).toHaveValue(first!);
  await page.getByRole("button", { name: "Generate certificate" }).click();

  // The server action opens the new certificate in the viewer.
  const viewer = page.getByTestId("certificate-viewer");
  const notice = viewer.getByText(/^Certificate FDP-CERT-\d{8}-[A-Z0-9]{5} generated\.$/);
  await expect(notice).toBeVisible();
  const number = (/FDP-CERT-\d{8}-[A-Z0-9]{5}/.exec((await notice.textContent()) ?? "") ?? [""])[0];
  const row = page.locator(`tr[data-certificate-row="${number}"]`);
  await expect(row).toContainText(first!);
  await expect(row).toContainText("Valid");
  await expect(viewer.locator(`iframe[src$="/dashboard/certificates/${number}/pdf"]`)).toHaveCount(1);
  await screenshot(page, "dashboard-certificates");

  // The viewer's route answers the stored PDF inline.
  const inline = await page.request.get(`/dashboard/certificates/${number}/pdf`);
  expect(inline.status()).toBe(200);
  expect(inline.headers()["content-type"]).toBe("application/pdf");
  expect(inline.headers()["content-disposition"]).toMatch(/^inline/);

  // Download with progress (fetch, then save): a real PDF.
  const [download] = await Promise.all([page.waitForEvent("download"), viewer.getByTestId("viewer-download").click()]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const pdf = await bytesOf(download);
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdfinfoAccepts(pdf)).toMatch(/Pages:\s+\d+/);
  // Byte-identical to the inline copy: both are the stored document.
  expect(Buffer.compare(pdf, await inline.body())).toBe(0);

  // The public verify page says "Valid".
  await viewer.getByRole("link", { name: "Public verify page" }).click();
  await expect(page).toHaveURL(new RegExp(`/verify/${number}$`));
  await expect(page.getByText("Valid", { exact: true }).first()).toBeVisible();
  await screenshot(page, "verify-from-dashboard");
});

test("the download routes refuse the signed-out; the PDF route answers 404 for unknown and other tenants' numbers", async ({ page, request }) => {
  // Signed out (the bare request context has no session cookie): no PDF.
  const anonymous = await request.get("/dashboard/certificates/FDP-CERT-20261124-7KQ2M/pdf?download=1");
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()["content-type"]).not.toContain("pdf");
  const csv = await request.get("/dashboard/reports/emissions-csv?start_date=2026-01-01&end_date=2026-01-31");
  expect(csv.status()).toBe(401);
  const csrd = await request.get("/dashboard/reports/csrd-pdf?start_date=2026-01-01&end_date=2026-01-31");
  expect(csrd.status()).toBe(401);

  await useSession(page);
  for (const number of ["FDP-CERT-20000101-ZZZZZ", "not-a-number"]) {
    const answer = await page.request.get(`/dashboard/certificates/${number}/pdf`);
    expect(answer.status()).toBe(404);
  }

  // Another tenant's certificate (issued through the API with that tenant's key): 404 to the demo user,
  // and absent from the demo user's list.
  const foreign = await page.request.post(`/api/v1/certificates/generate/${encodeURIComponent(process.env.FDP_E2E_FOREIGN_DEVICE!)}`, {
    headers: { authorization: `Bearer ${process.env.FDP_E2E_FOREIGN_KEY!}` },
  });
  expect(foreign.status()).toBe(200);
  const foreignNumber = ((await foreign.json()) as { certificate_number: string }).certificate_number;
  for (const suffix of ["", "?download=1"]) {
    const answer = await page.request.get(`/dashboard/certificates/${foreignNumber}/pdf${suffix}`);
    expect(answer.status()).toBe(404);
    expect(answer.headers()["content-type"]).not.toContain("pdf");
  }
  await page.goto(`/dashboard/certificates?view=${foreignNumber}`);
  await expect(page.getByRole("heading", { level: 1, name: "Certificates" })).toBeVisible();
  await expect(page.getByText(foreignNumber)).toHaveCount(0);
  const badDates = await page.request.get("/dashboard/reports/emissions-csv?start_date=2026-02-30&end_date=2026-03-01");
  expect(badDates.status()).toBe(400);
});

test("reports: the last 30 days as a table, the CSV with its TOTAL row, the CSRD PDF and its JSON view", async ({ page }) => {
  await signedIn(page, "/dashboard/reports");
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  const end = new Date().toISOString().slice(0, 10);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Start date").fill(start);
  await page.getByLabel("End date").fill(end);
  await page.getByRole("button", { name: "Show reports" }).click();
  await expect(page).toHaveURL(new RegExp(`start_date=${start}&end_date=${end}`));

  const table = page.getByTestId("emissions-table");
  await expect(table).toBeVisible();
  expect(await table.locator("tbody tr").count()).toBeGreaterThan(0);
  await expect(table.locator("tfoot tr[data-emissions-total]")).toContainText("Total");
  // No bare dash, and a zero only where one was measured: what does not apply is said in words, by powertrain.
  await expect(table.locator("tbody")).not.toContainText("—");
  const rows = await table.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({
      powertrain: tr.querySelector("td")!.textContent.trim(),
      energy: tr.querySelector("[data-energy-cell]")!.textContent.trim(),
      fuel: tr.querySelector("[data-fuel-cell]")!.textContent.trim(),
    })),
  );
  for (const r of rows) {
    if (r.powertrain === "BEV") {
      expect(r.energy, JSON.stringify(r)).toMatch(/^[\d,]+\.\d$/);
      expect(r.fuel).toBe("does not apply");
    } else {
      expect(r.energy, JSON.stringify(r)).toBe(r.powertrain === "PHEV" ? "in the per-km factor" : "does not apply");
      expect(r.fuel, JSON.stringify(r)).toMatch(/^([\d,]+\.\d|no per-litre factor)$/);
    }
  }
  expect(new Set(rows.map((r) => r.powertrain))).toEqual(new Set(["BEV", "PHEV", "HEV", "ICE"]));
  await screenshot(page, "dashboard-reports");

  const [csvDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-emissions-csv").click()]);
  expect(csvDownload.suggestedFilename()).toBe(`emissions-${start}-${end}.csv`);
  const csv = (await bytesOf(csvDownload)).toString("utf8").trim().split(/\r?\n/);
  expect(csv[0]).toMatch(/^device_id,device_name,powertrain,distance_km,energy_kwh,fuel_l,co2_kg/);
  expect(csv.at(-1)).toMatch(/^TOTAL,/);
  // One CSV row per table row (every vehicle of the tenant), plus header and TOTAL.
  expect(csv.length).toBe((await table.locator("tbody tr").count()) + 2);

  const [pdfDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-csrd-pdf").click()]);
  expect(pdfDownload.suggestedFilename()).toBe(`csrd-${start}-${end}.pdf`);
  const pdf = await bytesOf(pdfDownload);
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdfinfoAccepts(pdf)).toMatch(/Pages:\s+\d+/);

  await expect(page.getByTestId("csrd-table")).toContainText("Green fleet score");
  await expect(page.getByTestId("csrd-role")).toContainText("Reporting role: operator");
  await expect(page.getByTestId("csrd-table")).toContainText("not reported (operator)");
  const json = page.getByTestId("csrd-json");
  await json.locator("summary").click();
  const text = await json.locator("pre").textContent();
  const report = JSON.parse(text ?? "{}") as { period: { start_date: string; end_date: string } };
  expect(report.period).toMatchObject({ start_date: start, end_date: end });
});

test("reports: bad dates are explained on the form, not a 500", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard");
  const answer = await page.goto("/dashboard/reports?start_date=2026-03-10&end_date=2026-03-01");
  expect(answer?.status()).toBe(200);
  await expect(page.getByRole("alert").first()).toContainText("must not be after end_date");
  await expect(page.getByTestId("emissions-table")).toHaveCount(0);
  await screenshot(page, "dashboard-reports-invalid");
});

test.describe("accessibility (axe): no serious or critical violations", () => {
  for (const path of ["/dashboard/certificates", "/dashboard/reports"]) {
    test(path, async ({ page }) => {
      await signedIn(page, path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(blocking(violations)).toEqual([]);
    });

    test(`${path} at phone width`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await signedIn(page, path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(blocking(violations)).toEqual([]);
      // Wide tables scroll inside their frame: the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, `${path.split("/").pop()}-phone`);
    });
  }
});
