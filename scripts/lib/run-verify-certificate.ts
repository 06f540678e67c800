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

/** What one check answered: the JSON object the CLI prints on stdout, and its exit code. */
interface VerifyCertificateRun {
  /** 0: authentic, unaltered, its key valid. 1: not. 2: nothing decided (usage, unreadable file, no keys). */
  code: 0 | 1 | 2;
  output: Record<string, unknown>;
}

interface VerifyCertificateIo {
  /** The explanations that are not the answer (usage, what is fetched, stack traces). */
  stderr(text: string): void;
  /** Where the keys are fetched from without --keys or --base-url (the CLI passes FDP_BASE_URL). */
  defaultBaseUrl?: string;
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

async function loadKeys(keysFile: string | undefined, baseUrl: string | undefined, io: VerifyCertificateIo): Promise<{ keys: KeysDocument; source: string }> {
  if (keysFile !== undefined) {
    let raw: string;
    try {
      raw = await readFile(keysFile, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read keys file ${keysFile}: ${(error as Error).message}`);
    }
    return { keys: parseKeys(raw, `keys file ${keysFile}`), source: keysFile };
  }
  const base = (baseUrl ?? io.defaultBaseUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(`${base}${KEYS_PATH}`);
  } catch {
    throw new UsageError(`not a URL: ${base}`);
  }
  io.stderr(`fetching ${url.href}`);
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

/**
 * One run of the offline certificate checker (docs/certificates.md), in the calling process: argv as
 * after `npm run --silent verify-certificate --`. Never throws: an unexpected failure is
 * `{"valid":false,"reason":"internal error"}` with code 2, its stack on stderr.
 */
export async function runVerifyCertificate(argv: readonly string[], io: VerifyCertificateIo): Promise<VerifyCertificateRun> {
  try {
    return await check(argv, io);
  } catch (error) {
    io.stderr(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return { code: 2, output: { valid: false, reason: "internal error" } };
  }
}

async function check(argv: readonly string[], io: VerifyCertificateIo): Promise<VerifyCertificateRun> {
  let file: string;
  let keysFile: string | undefined;
  let baseUrl: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { keys: { type: "string" }, "base-url": { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.stderr(USAGE);
      return { code: 2, output: { valid: false, reason: "usage" } };
    }
    if (positionals.length !== 1) throw new UsageError("exactly one file (a certificate PDF or its verify JSON) is expected");
    if (values.keys !== undefined && values["base-url"] !== undefined) throw new UsageError("--keys and --base-url exclude each other");
    file = positionals[0]!;
    keysFile = values.keys;
    baseUrl = values["base-url"];
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return { code: 2, output: { valid: false, reason: `usage: ${(error as Error).message}` } };
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
    const { keys, source } = await loadKeys(keysFile, baseUrl, io);
    const result = json ? await verifyCertificateJson(json, keys) : verifyCertificatePdf(pdf, keys);
    if (result.ok) {
      const { ok: _ok, ...fields } = result;
      return { code: 0, output: { valid: true, ...fields, keys_source: source } };
    }
    const { ok: _ok, ...fields } = result;
    return { code: 1, output: { valid: false, ...fields } };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(error.message);
    return { code: 2, output: { valid: false, reason: error.message } };
  }
}
