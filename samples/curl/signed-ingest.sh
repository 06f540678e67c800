#!/usr/bin/env bash
# Signed ingest with curl and openssl: both signature forms of FDP's API contract.
#
#   FDP_BASE_URL=… FDP_API_KEY=… FDP_INGEST_SECRET=… ./signed-ingest.sh [VIN]
#
# 1. Header `X-FDP-Signature: t=<unix seconds>,sha256=<hex>`: HMAC-SHA256 over "<t>.<raw body>" with the
#    tenant's ingest secret (the recommended form; sign each request when you send it, it is accepted once).
# 2. Body member `hmac_signature`: HMAC-SHA256 over the RFC 8785 canonical JSON of the body without it. The
#    body below is written canonically by hand (members sorted, no spaces), so those are the bytes to sign.
# 3. The header of one body sent with another: 401 invalid_signature, nothing stored.
# Prints each answer; exits 1 unless the first two are accepted and the third refused.
set -euo pipefail
base="${FDP_BASE_URL:-http://localhost:3000}"
key="${FDP_API_KEY:-fdp_sandbox_3f6c0a1e9b7d4c25}"
secret="${FDP_INGEST_SECRET:-sandbox-ingest-secret-not-for-production}"
vin="${1:-CURLSAMPLE0000001}"

hmac() { openssl dgst -sha256 -hmac "$secret" -r | cut -d' ' -f1; }
at() { date -u -d "-$1 min" +%Y-%m-%dT%H:%M:%SZ; }
# POST a body with extra headers; prints "<status> <answer>".
post() {
  local body=$1
  shift
  curl -sS -o /tmp/fdp-sample-answer.$$ -w '%{http_code}' -X POST "$base/api/v1/oem/ingest" \
    -H "Authorization: Bearer $key" -H "Content-Type: application/json" "$@" --data-raw "$body"
  echo " $(cat /tmp/fdp-sample-answer.$$)"
  rm -f /tmp/fdp-sample-answer.$$
}

# 1. Timestamped header.
body='{"vehicles":[{"vin":"'"$vin"'","timestamp":"'"$(at 3)"'","odometer_km":2000.5,"speed_kmh":42}]}'
t=$(date +%s)
sig=$(printf '%s.%s' "$t" "$body" | hmac)
first=$(post "$body" -H "X-FDP-Signature: t=$t,sha256=$sig")
echo "header, timestamped: $first"

# 2. Body member over the canonical JSON of the rest of the body.
canonical='{"vehicles":[{"odometer_km":2001.25,"speed_kmh":42,"timestamp":"'"$(at 2)"'","vin":"'"$vin"'"}]}'
sig=$(printf '%s' "$canonical" | hmac)
second=$(post '{"hmac_signature":"'"$sig"'",'"${canonical#\{}")
echo "body hmac_signature: $second"

# 3. A body changed after signing.
body='{"vehicles":[{"vin":"'"$vin"'","timestamp":"'"$(at 1)"'","odometer_km":2002.0,"speed_kmh":42}]}'
t=$(date +%s)
sig=$(printf '%s.%s' "$t" "$body" | hmac)
third=$(post "${body/2002.0/9002.0}" -H "X-FDP-Signature: t=$t,sha256=$sig")
echo "header on a changed body: $third"

[[ $first == 200* && $second == 200* && $third == 401*invalid_signature* ]]
