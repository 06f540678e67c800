import { execFile } from "node:child_process";
import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser } from "@playwright/test";
import { TEST_BROWSER_LAUNCH } from "../helpers/test-browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { generateCertificate } from "@/lib/certificates/generate-certificate";
import { closeCertificatePdfWorkers } from "@/lib/certificates/pdf/render-certificate-pdf-in-worker";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { runVerifyCertificate } from "@/scripts/lib/run-verify-certificate";
import { runAdminInProcess } from "../helpers/admin-in-process";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * What an auditor meets, on the built app in a real browser: the verify page says Valid, Expired or
 * Revoked (revoked with the operator CLI), answers an unknown number with a 404 page, tells an
 * authentic PDF from one with a byte changed, and answers a 429 page once the per-IP budget it
 * shares with the JSON twin is spent. The same PDFs go through the offline checker with the published
 * keys. Both CLIs run in this process here (their processes are tests/integration/admin-cli.test.ts's
 * and tests/unit/certificates/certificate-pdf-cli.test.ts's).
 */

const run = promisify(execFile);
const PUBLIC_LIMIT = 40;
const DAY = 86_400_000;

let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let app: AppProcess;
let browser: Browser;
let handle: DbHandle;
const work = mkdtempSync(path.join(tmpdir(), "fdp-verify-it-"));
const certs = { valid: "", expired: "", revoked: "" };
let validPdf: Buffer;

async function issue(deviceId: string): Promise<{ certificate_number: string; pdf_base64: string }> {
  const res = await fetch(`${app.url}/api/v1/certificates/generate/${deviceId}`, { method: "POST", headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { certificate_number: string; pdf_base64: string };
}

beforeAll(async () => {
  pg = await createPostgresDatabase("fdp_verify", "seeded");
  // One deployment: the app and this process (which issues the back-dated certificate) share the first
  // signing key and the secret the stored keys are encrypted under, as a deployment's instances do.
  const pem = generateKeyPair("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const keySecret = "integration-test-key-encryption-secret";
  process.env.FDP_CERT_SIGNING_KEY = pem;
  process.env.FDP_CERT_KEY_SECRET = keySecret;
  resetEnvCache();
  app = await startApp({
    mode: "start",
    env: { DATABASE_URL: pg.url, REDIS_URL: undefined, FDP_CERT_SIGNING_KEY: pem, FDP_CERT_KEY_SECRET: keySecret, RATE_LIMIT_PUBLIC_PER_MIN: String(PUBLIC_LIMIT) },
  });
  handle = await openDatabase({ url: pg.url });

  const valid = await issue("sbx-004");
  certs.valid = valid.certificate_number;
  validPdf = Buffer.from(valid.pdf_base64, "base64");
  certs.revoked = (await issue("sbx-010")).certificate_number;
  const ctx = { db: handle.db, tenantId: SANDBOX_TENANT_ID, isSandbox: true, log: rootLogger() };
  // The back-dated certificate needs a key that was valid then: this key has been active for a year.
  await handle.db.execute(sql`update certificate_signing_keys set valid_from = now() - interval '365 days' where status = 'active'`);
  certs.expired = (await generateCertificate({ ctx, input: { device_id: "sbx-027" }, now: new Date(Date.now() - 200 * DAY) })).certificate_number;

  browser = await chromium.launch(TEST_BROWSER_LAUNCH);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await closeCertificatePdfWorkers();
  await handle?.close();
  await app?.stop();
  await pg?.drop();
  delete process.env.FDP_CERT_SIGNING_KEY;
  delete process.env.FDP_CERT_KEY_SECRET;
  resetEnvCache();
  rmSync(work, { recursive: true, force: true });
});

describe("the verify page in Chromium", () => {
  it("revocation with the operator CLI answers revoked", async () => {
    const revoke = await runAdminInProcess(["certificate:revoke", "--number", certs.revoked, "--reason", "Issued for the wrong vehicle"], { DATABASE_URL: pg.url });
    expect(revoke).toMatchObject({ code: 0, json: { revoked: true } });
  });

  it.each([
    ["valid", "Valid", /valid until/],
    ["expired", "Expired", /expired on/],
    ["revoked", "Revoked", /Reason: Issued for the wrong vehicle/],
  ] as const)("a %s certificate's page says %s", async (kind, word, sentence) => {
    const page = await browser.newPage();
    const res = await page.goto(`${app.url}/verify/${certs[kind]}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["ratelimit-limit"]).toBe(String(PUBLIC_LIMIT));
    const status = page.getByTestId("certificate-status");
    await expect.poll(() => status.getAttribute("data-status")).toBe(kind);
    expect(await status.locator("p").first().textContent()).toBe(word);
    expect(await status.textContent()).toMatch(sentence);
    expect(await page.content()).toContain(certs[kind]);
    await page.close();
  });

  it("an unknown or malformed number is a 404 page", async () => {
    const page = await browser.newPage();
    for (const number of ["FDP-CERT-20200101-ZZZZZ", "not-a-certificate"]) {
      const res = await page.goto(`${app.url}/verify/${number}`);
      expect(res?.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Unknown certificate");
    }
    await page.close();
  });

  it("tells the authentic PDF from a copy with one byte changed", async () => {
    const altered = Buffer.from(validPdf);
    const at = Math.floor(altered.length / 2);
    altered[at] = altered[at]! ^ 0x01;
    const page = await browser.newPage();
    await page.goto(`${app.url}/verify/${certs.valid}`);
    const result = page.getByTestId("pdf-check-result");

    await page.setInputFiles("#pdf-file", { name: "certificate.pdf", mimeType: "application/pdf", buffer: validPdf });
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/^Authentic/);

    await page.setInputFiles("#pdf-file", { name: "certificate.pdf", mimeType: "application/pdf", buffer: altered });
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/^Not an authentic, unaltered FDP certificate/);
    await page.close();
  });
});

describe("offline verification with the published keys", () => {
  it("the CLI accepts the issued PDF and rejects one with a byte changed, with no server involved", async () => {
    const keys = await (await fetch(`${app.url}/.well-known/fdp-certificate-keys.json`)).text();
    writeFileSync(path.join(work, "keys.json"), keys);
    writeFileSync(path.join(work, "good.pdf"), validPdf);
    const altered = Buffer.from(validPdf);
    altered[100] = altered[100]! ^ 0x20;
    writeFileSync(path.join(work, "bad.pdf"), altered);

    const cli = async (file: string) => {
      const { code, output } = await runVerifyCertificate([path.join(work, file), "--keys", path.join(work, "keys.json")], { stderr: () => {} });
      return { code, out: output };
    };
    const good = await cli("good.pdf");
    expect(good).toMatchObject({ code: 0, out: { valid: true, certificate_number: certs.valid } });
    const bad = await cli("bad.pdf");
    expect(bad.code).toBe(1);
    expect(bad.out.valid).toBe(false);
    // poppler agrees, with no FDP code involved.
    const pdfsig = (file: string) =>
      run("pdfsig", [path.join(work, file)]).then(
        (r) => r.stdout,
        (e: { stdout: string }) => e.stdout,
      );
    expect(await pdfsig("good.pdf")).toContain("Signature Validation: Signature is Valid.");
    expect(await pdfsig("bad.pdf")).not.toContain("Signature is Valid");
  }, 60_000);
});

describe("the per-IP budget", () => {
  it("once spent, the page answers a 429 page and its JSON twin a 429 envelope", async () => {
    let last: Response | undefined;
    for (let i = 0; i <= PUBLIC_LIMIT; i += 1) {
      last = await fetch(`${app.url}/verify/${certs.valid}`);
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
    expect(last?.headers.get("content-type")).toMatch(/^text\/html/);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await last?.text()).toContain("Too many requests");
    const json = await fetch(`${app.url}/api/v1/certificates/${certs.valid}/verify`);
    expect(json.status).toBe(429);
    expect(await json.json()).toMatchObject({ error: "rate_limited" });
  });
});
