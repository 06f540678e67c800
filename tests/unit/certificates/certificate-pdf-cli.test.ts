import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import canonicalize from "canonicalize";
import { buildCertifiedContent, canonicalContent, verifyHashOf } from "@/lib/certificates/build-certificate";
import { renderCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { signDetachedJws } from "@/lib/certificates/signing/jws";
import { signPdf } from "@/lib/certificates/signing/pades";
import { certificatePdfInput, keysDocument, makeTestKey } from "@/tests/helpers/certificate-pdf-fixture";
import { runVerifyCertificate } from "@/scripts/lib/run-verify-certificate";

/**
 * The offline certificate checker as an auditor runs it: the PDF (or the verify JSON) and keys on disk,
 * or the keys served over HTTP by a stand-in for FDP's `/.well-known` route. Its checks run in this
 * process (scripts/lib/run-verify-certificate.ts); one real `npm run --silent verify-certificate` shows
 * the process around them: the one JSON line on stdout, the explanation on stderr, the exit code.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** A closed port: no accidental real server when the keys are fetched from the default address. */
const CLOSED_BASE_URL = "http://127.0.0.1:9";
const dir = mkdtempSync(path.join(tmpdir(), "fdp-certificate-pdf-cli-"));
const key = makeTestKey("fdp-test-1");
const other = makeTestKey("fdp-test-2");
const files = { sealed: "", altered: "", keys: "", otherKeys: "", notJson: "", revokedKeys: "", json: "", alteredJson: "" };
let server: Server;
let baseUrl = "";

/** One check in this process, as the CLI runs it with FDP_BASE_URL at a closed port; the answer through JSON, as printed. */
async function verify(args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const stderr: string[] = [];
  const { code, output } = await runVerifyCertificate(args, { stderr: (text) => stderr.push(text), defaultBaseUrl: CLOSED_BASE_URL });
  return { code, json: JSON.parse(JSON.stringify(output)) as Record<string, unknown>, stderr: stderr.join("\n") };
}

function npmRunVerifyCertificate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "verify-certificate", "--", ...args], {
      cwd: ROOT,
      env: { ...process.env, FDP_BASE_URL: CLOSED_BASE_URL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  const input = certificatePdfInput({ signing: { ...certificatePdfInput().signing, pdf_certificate_sha256: key.pdfCertificateSha256 } });
  const pdf = await signPdf(await renderCertificatePdf(input), key.pdf, { signingTime: new Date(input.generated_at), reason: "test" });
  const altered = Buffer.from(pdf);
  altered[Math.floor(altered.length / 2)] = altered[Math.floor(altered.length / 2)]! ^ 0x04;
  const write = (name: string, data: string | Buffer) => {
    const file = path.join(dir, name);
    writeFileSync(file, data);
    return file;
  };
  files.sealed = write("certificate.pdf", pdf);
  files.altered = write("altered.pdf", altered);
  files.keys = write("keys.json", JSON.stringify(keysDocument(key.jwk)));
  files.otherKeys = write("other-keys.json", JSON.stringify(keysDocument(other.jwk)));
  files.notJson = write("not.json", "{");
  files.revokedKeys = write(
    "revoked-keys.json",
    JSON.stringify(
      keysDocument({ ...key.jwk, status: "revoked", valid_until: "2026-12-01T00:00:00.000Z", revoked_at: "2026-12-01T00:00:00.000Z", revocation_reason: "key leaked" }),
    ),
  );
  // A verify JSON as GET /certificates/<number>/verify answers it: the certified fields, verify_hash, jws.
  const content = JSON.parse(canonicalize({ ...sampleContent(), generated_at: "2026-11-24T01:11:04.000Z" }) as string);
  const canonical = canonicalContent(content);
  const jws = await signDetachedJws(Buffer.from(canonical, "utf8"), { kid: key.kid, privateKey: key.privateKey });
  const verifyJson = { ...content, status: "valid", verify_hash: verifyHashOf(canonical), key_id: key.kid, jws };
  files.json = write("verify.json", JSON.stringify(verifyJson));
  files.alteredJson = write(
    "verify-altered.json",
    JSON.stringify({
      ...verifyJson,
      grade: "A" === content.grade ? "B" : "A",
      verify_hash: verifyHashOf(canonicalContent({ ...content, grade: "A" === content.grade ? "B" : "A" })),
    }),
  );

  server = createServer((req, res) => {
    if (req.url === "/.well-known/fdp-certificate-keys.json") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(keysDocument(key.jwk)));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** Certified content from the real builder (what a certificate's JSON holds). */
function sampleContent() {
  const vh = {
    device_id: "sbx-001",
    vehicle_health_score: 80,
    score_version: "v",
    confidence: "medium" as const,
    components: { battery: 90, diagnostics: 80, electrical_12v: null, odometer_integrity: 100, usage: 70 },
    available_signals: [],
    missing_signals: [],
    soh_evidence: { status: "measured" as const, max_age_days: 90, last_reading_pct: 91, last_reading_at: "2026-11-20T00:00:00.000Z", age_days: 4, statement: "s" },
    limitations: [],
    generated_at: "2026-11-24T01:11:04.000Z",
  };
  return buildCertifiedContent(
    {
      vehicle: {
        device_id: "sbx-001",
        name: "Car",
        vin: null,
        make: null,
        model: null,
        year: null,
        powertrain: "BEV",
        asset_class: null,
        battery_kwh: 60,
        latest_odometer_km: 1000,
        latest_odometer_at: new Date("2026-11-24T00:00:00Z"),
      },
      vehicleHealth: vh,
      eol: {
        device_id: "sbx-001",
        condition_grade: "B",
        vehicle_health_score: 80,
        confidence: "medium",
        knockout_evidence: [],
        excluded_readings: [],
        soh_evidence: vh.soh_evidence,
        limitations: [],
        generated_at: vh.generated_at,
      },
      battery: {
        device_id: "sbx-001",
        snapshot: { soc_current_pct: 50, battery_voltage: 12.5, charging_status: null, charging_power_kw: null, estimated_range_km: null },
        last_battery_alert: null,
        data_quality: {
          method_version: "b",
          missing_fields: [],
          not_applicable_fields: [],
          latest_telemetry_at: null,
          data_age_seconds: null,
          freshness: "none",
          soh_pct: 91,
          soh_source: "oem_bms",
          soh_reported_at: "2026-11-20T00:00:00.000Z",
          soh_evidence: vh.soh_evidence,
          powertrain: "BEV",
          has_traction_battery: true,
          excluded_readings: [],
          range_model: null,
        },
        generated_at: vh.generated_at,
      },
      residual: { estimated_residual_pct: 55, confidence: "medium", factors: { age_months: 24, mileage_km: 1000 }, estimation_method: "rv" } as never,
    },
    { number: "FDP-CERT-20261124-AB12C", now: new Date("2026-11-24T01:11:04Z"), validityDays: 180 },
  );
}

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("verify-certificate", () => {
  it("as a process: the one JSON line on stdout, what it fetches on stderr, exit 0 for the authentic PDF", async () => {
    const run = await npmRunVerifyCertificate([files.sealed, "--base-url", baseUrl]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, certificate_number: "FDP-CERT-20261124-AB12C", keys_source: `${baseUrl}/.well-known/fdp-certificate-keys.json` });
    expect(run.stderr).toBe(`fetching ${baseUrl}/.well-known/fdp-certificate-keys.json\n`);
  });

  it("exits 0 for the authentic PDF and 1 for altered or foreign-key ones, offline with --keys", async () => {
    const [ok, altered, unknownKey] = await Promise.all([
      verify([files.sealed, "--keys", files.keys]),
      verify([files.altered, "--keys", files.keys]),
      verify([files.sealed, "--keys", files.otherKeys]),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toEqual({
      valid: true,
      certificate_number: "FDP-CERT-20261124-AB12C",
      verify_hash: certificatePdfInput().verify_hash,
      generated_at: "2026-11-24T01:11:04Z",
      kid: "fdp-test-1",
      key_status: "active",
      pdf_signing_certificate_sha256: key.pdfCertificateSha256,
      keys_source: files.keys,
    });
    expect(altered.code).toBe(1);
    expect(altered.json).toMatchObject({ valid: false, status: "invalid", reason: expect.stringMatching(/^digest mismatch/) });
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.json).toMatchObject({ valid: false, reason: expect.stringMatching(/^signed with a certificate FDP does not publish/) });
  });

  it("says revoked (exit 1) for a PDF whose key was revoked", async () => {
    const run = await verify([files.sealed, "--keys", files.revokedKeys]);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ valid: false, status: "revoked", reason: expect.stringContaining("key leaked") });
  });

  it("checks a saved verify JSON: its hash and its JWS with the published key (exit 0), an altered one fails (exit 1)", async () => {
    const [ok, altered, revoked] = await Promise.all([
      verify([files.json, "--keys", files.keys]),
      verify([files.alteredJson, "--keys", files.keys]),
      verify([files.json, "--keys", files.revokedKeys]),
    ]);
    expect(ok.code, JSON.stringify(ok.json) + ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ valid: true, kid: "fdp-test-1", key_status: "active", certificate_number: "FDP-CERT-20261124-AB12C" });
    expect(altered.code).toBe(1);
    expect(altered.json).toMatchObject({ valid: false, reason: expect.stringMatching(/JWS does not verify/) });
    expect(revoked.code).toBe(1);
    expect(revoked.json).toMatchObject({ valid: false, status: "revoked" });
  });

  it("fetches the published keys from --base-url, and says so when it cannot", async () => {
    const [fetched, fetchedAltered, unreachable] = await Promise.all([
      verify([files.sealed, "--base-url", baseUrl]),
      verify([files.altered, "--base-url", `${baseUrl}/`]),
      verify([files.sealed]), // the default address is a closed port
    ]);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.json).toMatchObject({ valid: true, keys_source: `${baseUrl}/.well-known/fdp-certificate-keys.json` });
    expect(fetchedAltered.code).toBe(1);
    expect(unreachable.code).toBe(2);
    expect(unreachable.json).toMatchObject({ valid: false, reason: expect.stringContaining("cannot fetch http://127.0.0.1:9/") });
  });

  it("exits 2 on usage errors, unreadable files and a keys file that is not a keys document", async () => {
    const runs = await Promise.all([
      verify([]),
      verify([files.sealed, "--bogus"]),
      verify([files.sealed, files.altered, "--keys", files.keys]),
      verify([path.join(dir, "missing.pdf"), "--keys", files.keys]),
      verify([files.sealed, "--keys", files.notJson]),
      verify([files.sealed, "--keys", files.sealed]),
    ]);
    for (const run of runs) {
      expect(run.code, JSON.stringify(run.json)).toBe(2);
      expect(run.json).toMatchObject({ valid: false, reason: expect.any(String) });
      expect(run.stderr.length).toBeGreaterThan(0); // the explanation goes to stderr
    }
  });
});
