#!/usr/bin/env bash
# Every test, after `npm install` (the README's test command and .ci/run). On a 2-core machine the CPU is
# the limit, so a core one step leaves idle is used by another, and the steps that time answers (the
# integration project's app starts, outages and soak) do not run beside the build:
#   1. the production build, and beside it the static checks at a lower priority, since nothing waits for
#      them: the TypeScript check of the whole project (tests included, and the route types Next.js
#      generates) with ESLint on the same TypeScript program (scripts/check-types-and-lint.ts; the build
#      skips its own check of the same files, FDP_BUILD_TYPECHECK=0), and beside it Prettier and knip;
#   2. after the build: Vitest's projects but integration, and beside it the browser tests (Playwright, one
#      worker) followed by Vitest's integration project (two files at a time), both on the build.
# The run fails when any step fails. VITEST_JSON_DIR=<dir> also writes each Vitest run's JSON report there.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# The tests' temporary files on the machine's tmpfs, unless TMPDIR names a place: every embedded (PGlite)
# test database is a copy of a migrated data directory of about 1,100 files, and the apps' and CLIs'
# embedded databases write their pages there. Copying one took 0.5–0.8 s of system time on this machine's
# ext4 and 0.03 s on /dev/shm; the PGlite API tests alone spent 31 s of system time against 10
# (docs/testing.md).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# Runs "$@" with its output kept in a file, printed when it ends with its wall time and the CPU time of its
# processes (user + system of every process it started and waited for; not PostgreSQL's, a server of its
# own); returns its status.
run_logged() {
  local name=$1 t=$SECONDS
  shift
  # A subshell, so that `times` counts this step's processes alone.
  (
    "$@" >"$logs/$name.log" 2>&1
    rc=$?
    times >"$logs/$name.times"
    exit $rc
  )
  local rc=$?
  # `times`: the shell's own line, then its children's, as "1m2.345s 0m0.678s" (user, system).
  local cpu
  cpu=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$logs/$name.times")
  # Steps end at any time: one prints at a time.
  {
    flock 9
    cat "$logs/$name.log"
    echo "[test] $name: $* — $((SECONDS - t)) s, ${cpu} CPU-s, exit $rc" >&2
  } 9>"$logs/.print"
  return $rc
}

vitest_reporters() {
  if [ -n "${VITEST_JSON_DIR:-}" ]; then echo "--reporter=default --reporter=json --outputFile=$VITEST_JSON_DIR/$1.json"; fi
}

# The route types the TypeScript check needs (.next/types), copied before the build deletes .next.
if ! npx next typegen >"$logs/typegen.log" 2>&1; then
  cat "$logs/typegen.log"
  exit 1
fi
cp -r .next/types "$logs/route-types"
# The two halves of `npm run check:static` side by side, so that whichever ends last has the other core.
run_logged types-and-lint env FDP_ROUTE_TYPES_DIR="$logs/route-types" nice -n 10 npm run --silent check:types-and-lint &
types_and_lint=$!
run_logged format-and-unused nice -n 10 npm run --silent check:format-and-unused &
format_and_unused=$!

status=0
if run_logged build env FDP_BUILD_TYPECHECK=0 npm run --silent build; then
  {
    e2e_status=0
    run_logged e2e env FDP_SKIP_BUILD=1 npx playwright test || e2e_status=1
    run_logged integration env FDP_SKIP_BUILD=1 npx vitest run --project integration $(vitest_reporters integration) || e2e_status=1
    exit "$e2e_status"
  } &
  apps=$!
  run_logged vitest npx vitest run --project '!integration' $(vitest_reporters vitest) || status=1
  wait "$apps" || status=1
else
  status=1
fi
wait "$types_and_lint" || status=1
wait "$format_and_unused" || status=1
exit "$status"
