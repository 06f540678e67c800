"""Signed ingest with the Python standard library: both signature forms of FDP's API contract.

  FDP_BASE_URL=… FDP_API_KEY=… FDP_INGEST_SECRET=… python3 signed_ingest.py [VIN]

1. Header `X-FDP-Signature: t=<unix seconds>,sha256=<hex>`, an HMAC-SHA256 over "<t>.<raw body>" with the
   tenant's ingest secret (its UTF-8 bytes): the recommended form. Sign each request when you send it;
   a signature is accepted once.
2. Body member `hmac_signature`: an HMAC-SHA256 over the RFC 8785 canonical JSON of the body without it.
Then the same header on a changed body, which FDP refuses with 401 invalid_signature and stores nothing.
Prints one JSON line per request; exits 1 unless the first two are accepted and the third refused.
"""

import hashlib
import hmac
import json
import sys
import time
from datetime import datetime, timedelta, timezone

from fdp_sample import INGEST_SECRET, call, canonical_json


def hmac_hex(data):
    return hmac.new(INGEST_SECRET.encode("utf-8"), data, hashlib.sha256).hexdigest()


def record(vin, minutes_ago, odometer_km):
    at = datetime.now(timezone.utc) - timedelta(minutes=minutes_ago)
    return {"vin": vin, "timestamp": at.isoformat(timespec="seconds").replace("+00:00", "Z"), "odometer_km": odometer_km, "speed_kmh": 42}


def main():
    vin = sys.argv[1] if len(sys.argv) > 1 else "PYSAMPLE000000001"
    results = []

    # 1. The timestamped header over the exact bytes sent.
    raw = json.dumps({"vehicles": [record(vin, 3, 1000.5)]}).encode("utf-8")
    t = str(int(time.time()))
    header = "t=%s,sha256=%s" % (t, hmac_hex(t.encode("ascii") + b"." + raw))
    status, headers, answer = call("POST", "/api/v1/oem/ingest", raw, {"X-FDP-Signature": header})
    results.append({"form": "header, timestamped", "status": status, "answer": answer})

    # 2. The body member over the canonical JSON of the rest of the body.
    body = {"vehicles": [record(vin, 2, 1001.25)]}
    body["hmac_signature"] = hmac_hex(canonical_json(body).encode("utf-8"))
    status, headers, answer = call("POST", "/api/v1/oem/ingest", json.dumps(body).encode("utf-8"))
    results.append({"form": "body hmac_signature", "status": status, "answer": answer})

    # 3. A body changed after signing: refused, nothing stored.
    t = str(int(time.time()))
    signed = json.dumps({"vehicles": [record(vin, 1, 1002.0)]}).encode("utf-8")
    header = "t=%s,sha256=%s" % (t, hmac_hex(t.encode("ascii") + b"." + signed))
    tampered = signed.replace(b"1002.0", b"9002.0")
    status, headers, answer = call("POST", "/api/v1/oem/ingest", tampered, {"X-FDP-Signature": header})
    results.append({"form": "header on a changed body", "status": status, "answer": answer})

    for r in results:
        print(json.dumps(r))
    ok = results[0]["status"] == 200 and results[1]["status"] == 200 and results[2]["status"] == 401
    ok = ok and isinstance(results[2]["answer"], dict) and results[2]["answer"].get("error") == "invalid_signature"
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
