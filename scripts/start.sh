#!/usr/bin/env bash
# Start Cuescope's production server: `npm start` (PORT defaults to 3000). Before serving, applies
# pending migrations to the database it will use (DATABASE_URL, or the embedded PGlite directory
# .cuescope/data) and, on a new embedded database, loads the demo data and prints a demo key.
#
# Build policy: build when there is no production build (.next/BUILD_ID) or when any source
# file is newer than it, so `npm start` never serves a stale build. Override with
#   CUESCOPE_BUILD=always   build every time
#   CUESCOPE_BUILD=never    never build (fails if there is no build)
# The server is scripts/server.mjs (Next.js' programmatic API behind node:http; it tells the app
# the real TCP peer, see README "Security"), exec'd so the PID is the server's own and stopping it
# stops Next.js. It listens on HOST, 127.0.0.1 (this machine only) unless HOST says otherwise,
# e.g. HOST=0.0.0.0 to serve the network (then sign in with keys: the demo button stays loopback-only).
set -euo pipefail

cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
PORT="${PORT:-3000}"
export HOST="${HOST:-127.0.0.1}"
BUILD_MODE="${CUESCOPE_BUILD:-auto}"

needs_build() {
  [[ -f .next/BUILD_ID ]] || return 0
  local newer
  newer="$(find app components lib public next.config.js package.json package-lock.json tsconfig.json \
    -newer .next/BUILD_ID -type f ! -name '*.test.ts' -print -quit 2>/dev/null || true)"
  [[ -n "$newer" ]]
}

case "$BUILD_MODE" in
  always) do_build=1 ;;
  never) do_build=0 ;;
  auto) if needs_build; then do_build=1; else do_build=0; fi ;;
  *) echo "start.sh: CUESCOPE_BUILD must be auto, always or never (got '$BUILD_MODE')" >&2; exit 2 ;;
esac

if [[ "$do_build" == 1 ]]; then
  echo "==> next build"
  node node_modules/next/dist/bin/next build
elif [[ ! -f .next/BUILD_ID ]]; then
  echo "start.sh: no production build in .next (run 'npm run build' or unset CUESCOPE_BUILD)" >&2
  exit 1
fi

# The server opens the database at start-up and records this address in the embedded directory's
# lock, so `npm run import` / `npm run demo` reach the data through it instead of opening it twice.
case "$HOST" in
  0.0.0.0 | :: | "[::]") local_host=127.0.0.1 ;;
  *:*) local_host="[${HOST#[}"; local_host="${local_host%]}]" ;;
  *) local_host="$HOST" ;;
esac
export CUESCOPE_SERVER_URL="http://$local_host:$PORT"
export PORT

# Migrations, the demo on a new embedded database, and the first administrator's setup link while
# nobody has an account (printed with this server's address, or CUESCOPE_PUBLIC_URL).
echo "==> database"
node node_modules/tsx/dist/cli.mjs scripts/prepare.ts

echo "==> server on $HOST port $PORT"
exec node scripts/server.mjs
