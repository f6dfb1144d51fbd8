#!/usr/bin/env bash
# The one test command (`npm test`): remix build, typecheck, lint (ESLint), format (Prettier), OpenAPI lint (Redocly), unit tests, API tests on SQLite and
# PostgreSQL beside Playwright e2e (JS on and off), the two at once. Every stage runs (tests are skipped only when the build
# failed); the script exits non-zero when any stage failed and ends with "N passed, N failed".
# Needs PostgreSQL at 127.0.0.1:5432 (TEST_PG_URL overrides) and /usr/bin/chromium (CHROMIUM_PATH).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BIN="$ROOT/node_modules/.bin"
ART="$ROOT/tests/.artifacts"
mkdir -p "$ART"
rm -f "$ART"/vitest-*.json "$ART"/playwright.json "$ART"/api-suite.*

declare -a SUMMARY=()
FAILED=0

stage() {
  local name="$1"; shift
  echo
  echo "=== $name: $*"
  local t0=$SECONDS
  "$@"
  local rc=$?
  local dt=$((SECONDS - t0))
  if [ $rc -eq 0 ]; then SUMMARY+=("ok    ${dt}s  $name"); else SUMMARY+=("FAIL  ${dt}s  $name (exit $rc)"); FAILED=1; fi
  return $rc
}

skip() {
  SUMMARY+=("SKIP   -   $1 ($2)")
  FAILED=1
}

if [ ! -x "$BIN/remix" ]; then
  echo "node_modules is missing: run 'npm ci' (or 'npm install') first" >&2
  exit 2
fi

BUILD_OK=1
# VITE_CJS_IGNORE_WARNING: see package.json "build" (the classic compiler never uses Vite).
stage "remix build" env VITE_CJS_IGNORE_WARNING=1 "$BIN/remix" build || BUILD_OK=0
# The browser build's .br and .gz files, as `npm run build` makes them (compress-assets.mjs).
[ $BUILD_OK -eq 1 ] && { stage "precompress assets" node compress-assets.mjs || BUILD_OK=0; }
stage "typecheck" "$BIN/tsc" --noEmit
stage "lint (eslint: the three walls, hooks; warnings allowed)" "$BIN/eslint" .
stage "format (prettier --check)" "$BIN/prettier" --check --log-level warn .
# The served OpenAPI description (api/openapi.ts) under Redocly's recommended rules: 0 errors (tests/openapi-lint.ts; offline).
stage "openapi lint (redocly recommended, served description)" "$BIN/tsx" tests/openapi-lint.ts
stage "unit" "$BIN/vitest" run --project unit --reporter=default --reporter=json --outputFile.json="$ART/vitest-unit.json"
if [ $BUILD_OK -eq 1 ]; then
  # The API suite and the e2e suite run side by side: neither waits on the other's servers, both must hold on a
  # machine that is busy (issue 31), and together they take the time of the longer. The API suite's output is kept
  # in a file and printed when it ends, so the two do not interleave.
  API_LOG="$ART/api-suite.log"
  (
    t0=$SECONDS
    "$BIN/vitest" run --project api --reporter=default --reporter=json --outputFile.json="$ART/vitest-api.json" >"$API_LOG" 2>&1
    echo "$? $((SECONDS - t0))" >"$ART/api-suite.rc"
  ) &
  API_PID=$!
  stage "e2e (playwright, js + nojs; the API suite beside it)" "$BIN/playwright" test
  wait "$API_PID"
  read -r API_RC API_DT <"$ART/api-suite.rc"
  echo
  echo "=== api (sqlite + postgres), run beside e2e: its output"
  cat "$API_LOG"
  if [ "$API_RC" -eq 0 ]; then SUMMARY+=("ok    ${API_DT}s  api (sqlite + postgres)"); else SUMMARY+=("FAIL  ${API_DT}s  api (sqlite + postgres) (exit $API_RC)"); FAILED=1; fi
else
  skip "api (sqlite + postgres)" "build failed"
  skip "e2e (playwright, js + nojs)" "build failed"
fi

echo
echo "=== summary"
for row in "${SUMMARY[@]}"; do echo "  $row"; done
node "$ROOT/tests/summary.mjs" "$ART/vitest-unit.json" "$ART/vitest-api.json" "$ART/playwright.json"
exit $FAILED
