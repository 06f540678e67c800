#!/usr/bin/env bash
# A vehicle health certificate checked with curl, jq and (for the PDF) poppler's pdfsig: what an auditor
# can do without FDP's tools.
#
#   FDP_BASE_URL=… ./check-certificate.sh FDP-CERT-20261124-AB12C
#
# 1. The public verification (no key): `status` must be `valid` (not revoked, not expired, its signing key
#    valid at its date). It also holds the certified facts, `verify_hash` and the JWS over them; checking
#    the JWS needs a JOSE library (samples/node/check-certificate.mjs).
# 2. The PDF (GET /api/v1/certificates/<number>/pdf, with a key): its SHA-256 must be the verification's
#    `pdf_sha256`, and its PAdES signature must verify (with pdfsig, when poppler-utils is installed).
# Exits 0 when every check passes, 1 otherwise.
set -euo pipefail
base="${FDP_BASE_URL:-http://localhost:3000}"
key="${FDP_API_KEY:-fdp_sandbox_3f6c0a1e9b7d4c25}"
number="${1:?usage: ./check-certificate.sh <certificate number>}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

curl -sS -f "$base/api/v1/certificates/$number/verify" -o "$work/verify.json"
jq '{certificate_number, status, grade, vehicle_health_score, generated_at, expires_at, verify_hash, key_id}' "$work/verify.json"
jq -e '.status == "valid"' "$work/verify.json" > /dev/null || { echo "not valid: $(jq -r '.status_reason // .status' "$work/verify.json")"; exit 1; }

curl -sS -f -H "Authorization: Bearer $key" "$base/api/v1/certificates/$number/pdf" -o "$work/certificate.pdf"
file_sha=$(sha256sum "$work/certificate.pdf" | cut -d' ' -f1)
[[ $file_sha == "$(jq -r '.pdf_sha256' "$work/verify.json")" ]] || { echo "the PDF is not the one issued"; exit 1; }
echo "PDF: sha256 $file_sha, as issued"
if command -v pdfsig > /dev/null; then
  # The signing certificate is FDP's own (published at /.well-known/fdp-certificate-signing.pem), not one a
  # PDF reader trusts by default: pdfsig checks that the signature is intact and covers the whole file.
  pdfsig "$work/certificate.pdf" | tee "$work/pdfsig.txt" | grep -E "Signature Validation|Signed Ranges|Total document signed" || true
  grep -q "Signature Validation: Signature is Valid." "$work/pdfsig.txt" || { echo "the PDF signature does not verify"; exit 1; }
fi
echo "valid"
