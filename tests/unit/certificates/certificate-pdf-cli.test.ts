import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSealedCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { certificatePdfInput, keysDocument, makeTestKey } from "@/tests/helpers/certificate-pdf-fixture";

/**
 * `npm run --silent verify-certificate` as an auditor runs it: a real process, the PDF and keys on
 * disk, or the keys served over HTTP by a stand-in for FDP's `/.well-known` route.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "fdp-certificate-pdf-cli-"));
const key = makeTestKey("fdp-test-1");
const other = makeTestKey("fdp-test-2");
const files = { sealed: "", altered: "", keys: "", otherKeys: "", notJson: "" };
let server: Server;
let baseUrl = "";

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "verify-certificate", "--", ...args], {
      cwd: ROOT,
      env: { ...process.env, FDP_BASE_URL: "http://127.0.0.1:9" }, // a closed port: no accidental real server
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

/** Exactly one JSON object on stdout. */
function json(stdout: string): Record<string, unknown> {
  expect(stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  const input = certificatePdfInput();
  const pdf = await renderSealedCertificatePdf(input, key.signer);
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

  server = createServer((req, res) => {
    if (req.url === "/.well-known/fdp-certificate-keys.json") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(keysDocument(key.jwk)));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run verify-certificate", () => {
  it("exits 0 for the authentic PDF and 1 for altered or foreign-key ones, offline with --keys", async () => {
    const [ok, altered, unknownKey] = await Promise.all([
      runCli([files.sealed, "--keys", files.keys]),
      runCli([files.altered, "--keys", files.keys]),
      runCli([files.sealed, "--keys", files.otherKeys]),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok.stdout)).toEqual({
      valid: true,
      certificate_number: "FDP-CERT-20261124-AB12C",
      verify_hash: certificatePdfInput().verify_hash,
      kid: "fdp-test-1",
      key_status: "active",
      content_signature: certificatePdfInput().content_signature,
      keys_source: files.keys,
    });
    expect(altered.code).toBe(1);
    expect(json(altered.stdout)).toMatchObject({ valid: false, reason: expect.stringMatching(/^signature mismatch/) });
    expect(unknownKey.code).toBe(1);
    expect(json(unknownKey.stdout)).toMatchObject({ valid: false, reason: expect.stringMatching(/^unknown key id/) });
  });

  it("fetches the published keys from --base-url, and says so when it cannot", async () => {
    const [fetched, fetchedAltered, unreachable] = await Promise.all([
      runCli([files.sealed, "--base-url", baseUrl]),
      runCli([files.altered, "--base-url", `${baseUrl}/`]),
      runCli([files.sealed]), // FDP_BASE_URL points at a closed port
    ]);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(json(fetched.stdout)).toMatchObject({ valid: true, keys_source: `${baseUrl}/.well-known/fdp-certificate-keys.json` });
    expect(fetchedAltered.code).toBe(1);
    expect(unreachable.code).toBe(2);
    expect(json(unreachable.stdout)).toMatchObject({ valid: false, reason: expect.stringContaining("cannot fetch http://127.0.0.1:9/") });
  });

  it("exits 2 on usage errors, unreadable files and a keys file that is not a keys document", async () => {
    const runs = await Promise.all([
      runCli([]),
      runCli([files.sealed, "--bogus"]),
      runCli([files.sealed, files.altered, "--keys", files.keys]),
      runCli([path.join(dir, "missing.pdf"), "--keys", files.keys]),
      runCli([files.sealed, "--keys", files.notJson]),
      runCli([files.sealed, "--keys", files.sealed]),
    ]);
    for (const run of runs) {
      expect(run.code, run.stdout).toBe(2);
      expect(json(run.stdout)).toMatchObject({ valid: false, reason: expect.any(String) });
      expect(run.stderr.length).toBeGreaterThan(0); // the explanation goes to stderr
    }
  });
});
