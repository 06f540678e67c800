#!/usr/bin/env bash
# The system tools the tests drive for real (no mocks): Chromium for the browser tests (Playwright
# with Debian's chromium, never a downloaded browser), pdfinfo (poppler-utils) and qpdf for the PDFs, and
# what the partner samples run with.
# Installs from Debian's packages only what is missing; does nothing when all are present.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# The tests' browser (tests/helpers/test-browser.ts): the same Chromium's headless shell, lighter on CPU.
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v pdfinfo >/dev/null 2>&1 || missing+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || missing+=(qpdf)
[ -d /usr/share/fonts/truetype/liberation ] || missing+=(fonts-liberation)
# The partner samples (samples/, tests/integration/partner-samples.test.ts): curl, jq, openssl and Python 3.
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "installing ${missing[*]} from Debian's packages" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
