#!/usr/bin/env bash
# The one command that runs every test: `npm test`.
#   1. typecheck   tsc --noEmit
#   2. lint        eslint (Next rules, react-hooks, typescript-eslint, import boundaries), no folder import loops
#                  (dependency-cruiser), prettier --check
#   3. unit        vitest run
#   4. build       next build (production build the e2e tests run against)
#   5. e2e         playwright test (Debian Chromium, production server on :3100)
set -euo pipefail

cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

section() {
  printf '\n\033[1m==> %s\033[0m\n' "$1"
}

started=$SECONDS

section "1/5 typecheck (tsc --noEmit)"
npx --no-install tsc --noEmit
echo "typecheck ok"

section "2/5 lint (npm run lint: eslint, import boundaries, folder loops, prettier)"
npm run --silent lint
echo "lint ok"

section "3/5 unit tests (vitest run)"
npx --no-install vitest run

section "4/5 production build (next build)"
node node_modules/next/dist/bin/next build

section "5/5 end-to-end tests (playwright test)"
npx --no-install playwright test

section "all tests passed in $((SECONDS - started)) s"
