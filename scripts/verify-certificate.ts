/**
 * Offline checker for FDP certificates, on the standard formats (docs/certificates.md):
 *   npm run --silent verify-certificate -- <certificate.pdf | verify.json> [--keys <keys.json>] [--base-url <url>]
 *
 * - A PDF: its PDF signature (PAdES, CMS over the whole file) must verify under a signing certificate
 *   the keys document lists, whose key was valid at the certificate's date and is not revoked.
 * - A verify JSON (GET /api/v1/certificates/<number>/verify, saved): `verify_hash` must be the SHA-256
 *   of the RFC 8785 canonical JSON of the certified fields, and `jws` must verify over those bytes with
 *   the published key it names, valid at `generated_at` and not revoked.
 *
 * With --keys it needs nothing but the file and a copy of the published keys document (no server, no
 * network). Without it, the keys are fetched from
 * `<--base-url | FDP_BASE_URL | http://localhost:3000>/.well-known/fdp-certificate-keys.json`.
 *
 * Prints exactly one JSON object on stdout: {"valid":true,...} or {"valid":false,"reason","status",...}.
 * Exit code 0: authentic, unaltered, its key valid. 1: not (altered, unknown or revoked key, outside the
 * key's validity). 2: usage error, unreadable file, or the keys could not be obtained (nothing decided).
 * Logs go to stderr only.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { canonicalContent, verifyHashOf } from "@/lib/certificates/build-certificate";
import { verifyDetachedJws } from "@/lib/certificates/signing/jws";
import { keysDocumentSchema, keyValidityAt, type KeysDocument } from "@/lib/certificates/signing/keys-document";
import { verifyCertificatePdf } from "@/lib/certificates/signing/verify-certificate-pdf";
import type { CertifiedContent } from "@/lib/schemas/certificates";

const KEYS_PATH = "/.well-known/fdp-certificate-keys.json";
const USAGE = "usage: npm run --silent verify-certificate -- <certificate.pdf | verify.json> [--keys <keys.json>] [--base-url <url>]";

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

function parseVerifyJson(bytes: Buffer, file: string): Record<string, unknown> {
  try {
    const json = JSON.parse(bytes.toString("utf8")) as unknown;
    if (json !== null && typeof json === "object" && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UsageError(`${file} is neither a PDF nor a certificate's verify JSON`);
}

/** The verify JSON's content: its hash recomputed, its JWS checked with the published key and that key's lifecycle. */
async function verifyCertificateJson(c: Record<string, unknown>, keys: KeysDocument) {
  const number = typeof c.certificate_number === "string" ? c.certificate_number : undefined;
  const fail = (reason: string, status: "revoked" | "invalid" = "invalid") => ({ ok: false as const, reason, status, ...(number ? { certificate_number: number } : {}) });
  if (typeof c.jws !== "string") return fail("no JWS in this JSON (a certificate from before JWS, or not a verify answer)");
  if (typeof c.generated_at !== "string" || Number.isNaN(Date.parse(c.generated_at))) return fail("no generated_at in this JSON");
  const canonical = canonicalContent(c as unknown as CertifiedContent);
  const hash = verifyHashOf(canonical);
  if (hash !== c.verify_hash) return fail(`verify_hash does not match the certified fields (they hash to ${hash})`);
  const jws = await verifyDetachedJws(c.jws, Buffer.from(canonical, "utf8"), keys.keys);
  if (!jws.ok) return fail(jws.reason);
  const key = keys.keys.find((k) => k.kid === jws.kid);
  const validity = keyValidityAt(key, new Date(c.generated_at));
  if (!validity.ok) return fail(validity.reason, validity.status);
  return { ok: true as const, certificate_number: number, verify_hash: hash, generated_at: c.generated_at, kid: jws.kid, key_status: key!.status };
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
    if (positionals.length !== 1) throw new UsageError("exactly one file (a certificate PDF or its verify JSON) is expected");
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
    const isPdf = pdf.subarray(0, 5).toString("latin1") === "%PDF-";
    const json = isPdf ? null : parseVerifyJson(pdf, file);
    const { keys, source } = await loadKeys(keysFile, baseUrl);
    const result = json ? await verifyCertificateJson(json, keys) : verifyCertificatePdf(pdf, keys);
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
