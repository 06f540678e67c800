// A vehicle health certificate checked in full with the typed client and a JOSE library.
//
//   FDP_BASE_URL=… node check-certificate.mjs FDP-CERT-20261124-AB12C
//
// From the public verification (no key needed):
// - `status` is `valid` (not revoked, not expired, its signing key valid at its date);
// - `verify_hash` is the SHA-256 of the RFC 8785 canonical JSON of the certified fields, recomputed here;
// - the JWS (detached payload: those same canonical bytes) verifies with the key the deployment publishes at
//   /.well-known/fdp-certificate-keys.json (a JWK Set), and that key was valid when the certificate was made.
// Prints one JSON line; exits 0 when every check passes, 1 otherwise.
import { createHash } from "node:crypto";
import { createFdpClient, orThrow } from "@fdp/client";
import canonicalize from "canonicalize";
import { compactVerify, createLocalJWKSet } from "jose";
import { baseUrl } from "./settings.mjs";

const number = process.argv[2];
if (!number) {
  console.error("usage: node check-certificate.mjs <certificate number>");
  process.exit(2);
}
// The verification is public: any key (or none) will do.
const fdp = createFdpClient({ baseUrl, apiKey: "" });
const verified = await orThrow(fdp.GET("/certificates/{certificate_number}/verify", { params: { path: { certificate_number: number } } }));

const certified = Object.fromEntries(
  ["certificate_number", "device_id", "grade", "vehicle_health_score", "residual_value_pct", "data_snapshot", "generated_at", "expires_at"].map((k) => [k, verified[k]]),
);
const payload = canonicalize(certified);
const recomputed = createHash("sha256").update(payload, "utf8").digest("hex");

const keysAnswer = await fetch(new URL("/.well-known/fdp-certificate-keys.json", baseUrl));
const keys = await keysAnswer.json();
const [header, , signature] = verified.jws.split(".");
let signatureValid = false;
let kid = null;
try {
  const result = await compactVerify(`${header}.${Buffer.from(payload, "utf8").toString("base64url")}.${signature}`, createLocalJWKSet(keys), { algorithms: ["EdDSA"] });
  signatureValid = true;
  kid = result.protectedHeader.kid;
} catch (e) {
  console.error(`signature: ${e.message}`);
}
const key = keys.keys.find((k) => k.kid === kid);
const generated = Date.parse(verified.generated_at);
// docs/certificates.md: the key is not revoked, and valid_from <= generated_at < valid_until (null: still active).
const keyValidThen = Boolean(key) && key.status !== "revoked" && Date.parse(key.valid_from) <= generated && (key.valid_until == null || generated < Date.parse(key.valid_until));

const checks = {
  status_valid: verified.status === "valid",
  hash_matches: recomputed === verified.verify_hash,
  signature_valid: signatureValid,
  key_valid_at_generation: keyValidThen,
};
const valid = Object.values(checks).every(Boolean);
console.log(JSON.stringify({ valid, certificate_number: number, status: verified.status, verify_hash: recomputed, kid, checks }));
process.exit(valid ? 0 : 1);
