"""A vehicle health certificate checked with the Python standard library.

  FDP_BASE_URL=… python3 check_certificate.py FDP-CERT-20261124-AB12C

Reads the public verification (GET /api/v1/certificates/<number>/verify, no key needed), then checks what
can be checked without a cryptography package:
- `status` is `valid` (not revoked, not expired, its signing key valid at its date);
- `verify_hash` is the SHA-256 of the RFC 8785 canonical JSON of the certified fields, recomputed here:
  the facts shown are the facts that were hashed and signed;
- the JWS names a key that the deployment publishes at /.well-known/fdp-certificate-keys.json.
The Ed25519 signature itself needs a library the standard library lacks (`cryptography`, PyNaCl, or a
JOSE library: see samples/node/check-certificate.mjs, which verifies it). Prints one JSON line; exits 0
when every check passes, 1 otherwise.
"""

import base64
import hashlib
import json
import sys
import urllib.parse

from fdp_sample import call, canonical_json

CERTIFIED_FIELDS = ["certificate_number", "device_id", "grade", "vehicle_health_score", "residual_value_pct", "data_snapshot", "generated_at", "expires_at"]


def b64url_json(part):
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 check_certificate.py <certificate number>")
    number = sys.argv[1]
    status, _, verified = call("GET", "/api/v1/certificates/%s/verify" % urllib.parse.quote(number, safe=""), key=False)
    if status != 200:
        print(json.dumps({"valid": False, "reason": "verification answered %d" % status, "answer": verified if isinstance(verified, dict) else None}))
        sys.exit(1)
    certified = {field: verified[field] for field in CERTIFIED_FIELDS}
    recomputed = hashlib.sha256(canonical_json(certified).encode("utf-8")).hexdigest()
    header = b64url_json(verified["jws"].split(".")[0]) if verified.get("jws") else {}
    _, _, keys = call("GET", "/.well-known/fdp-certificate-keys.json", key=False)
    published = [k for k in keys.get("keys", []) if k.get("kid") == header.get("kid")]
    checks = {
        "status_valid": verified["status"] == "valid",
        "hash_matches": recomputed == verified["verify_hash"],
        "key_published": len(published) == 1 and header.get("alg") == "EdDSA",
    }
    print(json.dumps({"valid": all(checks.values()), "certificate_number": number, "status": verified["status"], "verify_hash": recomputed, "kid": header.get("kid"), "checks": checks}))
    sys.exit(0 if all(checks.values()) else 1)


if __name__ == "__main__":
    main()
