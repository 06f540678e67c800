"""What the Python samples share: settings from the environment, HTTP calls and RFC 8785 JSON.

Standard library only (Python 3.9 or later). The settings:
  FDP_BASE_URL       the deployment's origin (default http://localhost:3000)
  FDP_API_KEY        an API key (default: the public sandbox key)
  FDP_INGEST_SECRET  the tenant's ingest secret (default: the sandbox's, public on purpose)
"""

import json
import math
import os
import urllib.error
import urllib.request

BASE_URL = os.environ.get("FDP_BASE_URL", "http://localhost:3000").rstrip("/")
API_KEY = os.environ.get("FDP_API_KEY", "fdp_sandbox_3f6c0a1e9b7d4c25")
INGEST_SECRET = os.environ.get("FDP_INGEST_SECRET", "sandbox-ingest-secret-not-for-production")


def call(method, path, body=None, headers=None, key=True):
    """Sends a request to FDP; returns (status, headers, parsed JSON or raw bytes). Never raises on an HTTP status."""
    all_headers = dict(headers or {})
    if key:
        all_headers["Authorization"] = "Bearer " + API_KEY
    if body is not None and "Content-Type" not in all_headers:
        all_headers["Content-Type"] = "application/json"
    request = urllib.request.Request(BASE_URL + path, data=body, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, answer_headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, raw = error.code, error.headers, error.read()
    # answer_headers is an email.message.Message: its lookups ignore case.
    if answer_headers.get_content_type() == "application/json":
        return status, answer_headers, json.loads(raw)
    return status, answer_headers, raw


def canonical_json(value):
    """RFC 8785 (JSON Canonicalization Scheme): the bytes FDP signs and hashes.

    Members sorted by their UTF-16 code units, no whitespace, strings escaped as ECMAScript's
    JSON.stringify does, numbers written as ECMAScript writes them (shortest round-trip digits).
    """
    if value is None or value is True or value is False:
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        return _es_number(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical_json(value[k]) for k in keys) + "}"
    raise TypeError("not JSON: %r" % (value,))


def _es_number(x):
    """A number as ECMAScript's Number.prototype.toString writes it (RFC 8785 section 3.2.2.3)."""
    if isinstance(x, bool) or not math.isfinite(x):
        raise ValueError("not a JSON number: %r" % (x,))
    if x == 0:
        return "0"
    if isinstance(x, int) and abs(x) < 2**53:
        return str(x)
    x = float(x)
    # repr gives the shortest digits that round-trip, as ECMAScript does; only the layout differs.
    mantissa, _, exp = repr(abs(x)).partition("e")
    digits = mantissa.replace(".", "").lstrip("0")
    point = (mantissa.index(".") if "." in mantissa else len(mantissa)) + int(exp or 0)
    point -= len(mantissa.replace(".", "")) - len(mantissa.replace(".", "").lstrip("0"))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    sign = "-" if x < 0 else ""
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
