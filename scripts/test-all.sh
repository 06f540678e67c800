#!/usr/bin/env bash
# Every test, after `npm install` (the README's test command and .ci/run): on a 2-core machine the CPU is
# the limit, so work that leaves a core idle runs beside other work.
#   1. the production build (its TypeScript step type-checks the whole project, tests included, and the
#      route types Next.js generates) beside the other static checks (ESLint, Prettier, knip);
#   2. Vitest's projects but integration (they keep both cores busy);
#   3. Vitest's integration project (one file at a time: each starts the built app) beside the browser
#      tests (Playwright, one worker): both drive the build of step 1.
# A failing step stops the run. VITEST_JSON_DIR=<dir> also writes each Vitest run's JSON report there.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# Runs "$@" with its output kept in a file, printed when it ends with its time; returns its status.
run_logged() {
  local name=$1 t=$SECONDS
  shift
  "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  cat "$logs/$name.log"
  echo "[test] $name: $* — $((SECONDS - t)) s, exit $rc" >&2
  return $rc
}

# Runs two named commands side by side ("name|command …"); fails when either fails.
side_by_side() {
  local a=$1 b=$2
  run_logged "${a%%|*}" bash -c "${a#*|}" &
  local pa=$!
  run_logged "${b%%|*}" bash -c "${b#*|}" &
  local pb=$!
  wait "$pa"
  local ra=$?
  wait "$pb"
  local rb=$?
  [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
}

vitest_reporters() {
  if [ -n "${VITEST_JSON_DIR:-}" ]; then echo "--reporter=default --reporter=json --outputFile=$VITEST_JSON_DIR/$1.json"; fi
}

side_by_side "build|npm run --silent build" "static-checks|npm run --silent check:static" || exit 1
run_logged vitest npx vitest run --project '!integration' $(vitest_reporters vitest) || exit 1
side_by_side "integration|FDP_SKIP_BUILD=1 npx vitest run --project integration $(vitest_reporters integration)" \
  "e2e|FDP_SKIP_BUILD=1 npx playwright test" || exit 1
