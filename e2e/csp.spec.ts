import { readFileSync } from "node:fs";
import path from "node:path";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { MAX_CHECKED_PDF_BYTES, PDF_TOO_LARGE_STATEMENT } from "../lib/certificates/pdf-check-limits";
import { expect, signIn, useSession, test } from "./fixtures";

/**
 * The pages work under their Content-Security-Policy (proxy.ts, lib/http/security-headers.ts): each
 * page's scripts run (the map draws, the forms answer, Scalar renders) and Chromium reports no
 * violation (the `page` fixture in e2e/fixtures.ts fails a test on any). A page of another origin
 * cannot frame the dashboard (clickjacking). The verify page checks a dropped PDF up to the app's
 * 2 MiB rule and says so in the page above it (Next.js's 1 MB action limit answered a 500 before).
 */

const auth = { authorization: `Bearer ${SANDBOX_KEY}` };

async function newCertificate(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const res = await request.post("/api/v1/certificates/generate/sbx-001", { headers: auth });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { certificate_number: string }).certificate_number;
}

test("signed out: the login form, the verify page and the API reference run their scripts, with no violation reported", async ({ page, request }) => {
  const number = await newCertificate(request);
  for (const target of ["/login", `/verify/${number}`]) {
    const res = await page.goto(target);
    expect(res?.headers()["content-security-policy"], target).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  }
  await expect(page.getByTestId("pdf-drop")).toBeVisible();
  // Scalar renders the reference only if its script files run.
  await page.goto("/docs");
  await expect(page.getByText("Fleet snapshot", { exact: false }).first()).toBeVisible({ timeout: 20_000 });
  // The login form is a client component: a wrong password is answered in the page by its server action.
  await signIn(page, "nobody@fdp.example", "wrong-password-2026");
  await expect(page.getByText("The email address or the password is wrong.")).toBeVisible();
});

test("signed in: the fleet map draws and every dashboard page renders, with no violation reported", async ({ page, request }) => {
  const number = await newCertificate(request);
  await useSession(page);
  await page.goto("/dashboard");
  // The fleet map is drawn by script (Leaflet, loaded on demand): it only gets ready if scripts run.
  await expect(page.locator("[data-fleet-map]")).toHaveAttribute("data-map-ready", "true");
  expect(await page.locator("[data-fleet-map] [data-device-id]").count()).toBeGreaterThan(0);
  for (const target of ["/dashboard/alerts", "/dashboard/keys", "/dashboard/reports", `/dashboard/certificates?view=${number}`]) {
    const res = await page.goto(target);
    expect(res?.status(), target).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }).first(), target).toBeVisible();
  }
  // The certificate viewer frames the PDF route of this origin, which the policy allows.
  await expect(page.locator(`iframe[src$="/dashboard/certificates/${number}/pdf"]`)).toHaveCount(1);
});

test("markup injected into a page runs no script: the policy refuses inline handlers and inline scripts, and says so", async ({ browser, baseURL }) => {
  // A context of its own: the violations are the point here, not a failure (the fixture's page would fail on them).
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const reported: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) reported.push(m.text());
  });
  await page.goto("/login");
  await page.evaluate(() => {
    // What a stored-XSS payload that escaped React's escaping would be: an inline handler and an inline script.
    document.body.insertAdjacentHTML("beforeend", '<img id="xss" src="/no-such-image.png" onerror="window.__injected = 1">');
    const frame = document.createElement("iframe");
    frame.srcdoc = "<script>parent.__injectedScript = 1</" + "script>";
    document.body.append(frame);
  });
  await expect.poll(() => reported.length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __injectedScript?: number }).__injectedScript)).toBeUndefined();
  await context.close();
});

test("a page of another origin cannot frame the dashboard (frame-ancestors 'none')", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors/.test(m.text())) blocked.push(m.text());
  });
  // about:blank with an iframe: another origin than the app's.
  await page.setContent(`<iframe id="target" src="${baseURL}/login" width="800" height="600"></iframe>`);
  await expect.poll(() => blocked.length, { timeout: 10_000 }).toBeGreaterThan(0);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  // The framed document is Chromium's error page, never the app's form.
  expect(
    await frame
      ?.locator("input#password")
      .count()
      .catch(() => 0),
  ).toBe(0);
  await context.close();
});

test("the verify page checks a dropped PDF up to 2 MiB and refuses a larger one in the page, without an error page", async ({ page, request }) => {
  const number = await newCertificate(request);
  await page.goto(`/verify/${number}`);
  const result = page.getByTestId("pdf-check-result");
  const real = readFileSync(path.join(import.meta.dirname, "..", "package.json"));
  // 1.5 MiB: over Next.js's default 1 MB action limit, inside FDP's rule: checked, and not a certificate.
  const padded = Buffer.concat([Buffer.from("%PDF-1.7\n"), real, Buffer.alloc(1.5 * 1024 * 1024 - real.length - 9, 0x20)]);
  await page.locator("#pdf-file").setInputFiles({ name: "large.pdf", mimeType: "application/pdf", buffer: padded });
  await expect(result).toContainText(/Not an authentic, unaltered FDP certificate/);
  // Exactly the limit: still checked.
  const atLimit = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(MAX_CHECKED_PDF_BYTES - 9, 0x20)]);
  await page.locator("#pdf-file").setInputFiles({ name: "limit.pdf", mimeType: "application/pdf", buffer: atLimit });
  await expect(result).toContainText(/Not an authentic, unaltered FDP certificate/);
  // Over it: the page says so.
  await page.locator("#pdf-file").setInputFiles({ name: "huge.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(MAX_CHECKED_PDF_BYTES + 1, 0x20) });
  await expect(result).toHaveText(PDF_TOO_LARGE_STATEMENT);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
});
