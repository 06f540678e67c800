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
 * Logs go to stderr only. The check itself is scripts/lib/run-verify-certificate.ts; this file is the
 * process around it.
 */
import { runVerifyCertificate } from "./lib/run-verify-certificate";

const { code, output } = await runVerifyCertificate(process.argv.slice(2), {
  stderr: (text) => process.stderr.write(`${text}\n`),
  defaultBaseUrl: process.env.FDP_BASE_URL,
});
process.stdout.write(`${JSON.stringify(output)}\n`);
process.exitCode = code;
