#!/usr/bin/env bash
# The one command that runs every test: `npm test`.
#   1. typecheck   tsc --noEmit
#   2. unit        vitest run
#   3. build       next build (production build the e2e tests run against)
#   4. e2e         playwright test (Debian Chromium, production server on :3100)
set -euo pipefail

cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

section() {
  printf '\n\033[1m==> %s\033[0m\n' "$1"
}

started=$SECONDS

section "1/4 typecheck (tsc --noEmit)"
npx --no-install tsc --noEmit
echo "typecheck ok"

section "2/4 unit tests (vitest run)"
npx --no-install vitest run

section "3/4 production build (next build)"
node node_modules/next/dist/bin/next build

section "4/4 end-to-end tests (playwright test)"
npx --no-install playwright test

section "all tests passed in $((SECONDS - started)) s"
