/**
 * Offline checker for FDP certificate PDFs:
 *   npm run --silent verify-certificate -- <file.pdf> [--keys <keys.json>] [--base-url <url>]
 *
 * With --keys it needs nothing but the PDF and a copy of the published keys file (no server, no
 * network). Without it, the keys are fetched from
 * `<--base-url | FDP_BASE_URL | http://localhost:3000>/.well-known/fdp-certificate-keys.json`.
 *
 * Prints exactly one JSON object on stdout:
 *   {"valid":true,"certificate_number","verify_hash","kid","key_status","content_signature","keys_source"}
 *   {"valid":false,"reason",...}
 * Exit code 0: authentic and unaltered. 1: not authentic (altered, unsealed, unknown key).
 * 2: usage error, unreadable file, or the keys could not be obtained (nothing was decided).
 * Logs go to stderr only. See docs/certificates.md.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { keysDocumentSchema, type KeysDocument } from "@/lib/certificates/pdf/keys-document";
import { verifyCertificatePdf } from "@/lib/certificates/pdf/seal-certificate-pdf";

const KEYS_PATH = "/.well-known/fdp-certificate-keys.json";
const USAGE = "usage: npm run --silent verify-certificate -- <file.pdf> [--keys <keys.json>] [--base-url <url>]";

class UsageError extends Error {}

function print(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function parseKeys(raw: string, source: string): KeysDocument {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new UsageError(`${source} is not JSON`);
  }
  const parsed = keysDocumentSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UsageError(`${source} is not an FDP keys document (${first ? `${first.path.join(".") || "root"}: ${first.message}` : "invalid"})`);
  }
  return parsed.data;
}

async function loadKeys(keysFile: string | undefined, baseUrl: string | undefined): Promise<{ keys: KeysDocument; source: string }> {
  if (keysFile !== undefined) {
    let raw: string;
    try {
      raw = await readFile(keysFile, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read keys file ${keysFile}: ${(error as Error).message}`);
    }
    return { keys: parseKeys(raw, `keys file ${keysFile}`), source: keysFile };
  }
  const base = (baseUrl ?? process.env.FDP_BASE_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(`${base}${KEYS_PATH}`);
  } catch {
    throw new UsageError(`not a URL: ${base}`);
  }
  process.stderr.write(`fetching ${url.href}\n`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: "application/json" } });
  } catch (error) {
    throw new UsageError(`cannot fetch ${url.href} (${(error as Error).message}); pass --keys <keys.json> to verify offline`);
  }
  if (!response.ok) throw new UsageError(`${url.href} answered ${response.status}`);
  return { keys: parseKeys(await response.text(), url.href), source: url.href };
}

async function main(): Promise<number> {
  let file: string;
  let keysFile: string | undefined;
  let baseUrl: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      options: { keys: { type: "string" }, "base-url": { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      process.stderr.write(`${USAGE}\n`);
      print({ valid: false, reason: "usage" });
      return 2;
    }
    if (positionals.length !== 1) throw new UsageError("exactly one PDF file is expected");
    if (values.keys !== undefined && values["base-url"] !== undefined) throw new UsageError("--keys and --base-url exclude each other");
    file = positionals[0]!;
    keysFile = values.keys;
    baseUrl = values["base-url"];
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    print({ valid: false, reason: `usage: ${(error as Error).message}` });
    return 2;
  }

  try {
    let pdf: Buffer;
    try {
      pdf = await readFile(file);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const { keys, source } = await loadKeys(keysFile, baseUrl);
    const result = verifyCertificatePdf(pdf, keys);
    if (result.ok) {
      const { ok: _ok, ...fields } = result;
      print({ valid: true, ...fields, keys_source: source });
      return 0;
    }
    const { ok: _ok, ...fields } = result;
    print({ valid: false, ...fields });
    return 1;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    print({ valid: false, reason: error.message });
    return 2;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    print({ valid: false, reason: "internal error" });
    process.exitCode = 2;
  },
);
