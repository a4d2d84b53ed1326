#!/usr/bin/env bash
# CI lane 2: the whole test suite on Node 24, installed from the npm registry (the `node` package
# ships the official binary and headers; nothing is downloaded from anywhere else).
#
# Run it after the Node 20 lane has built the workspace (`pnpm test:all`): it reuses the built
# `dist/` and re-runs every package's tests and the reliability suite (its properties at a quarter
# of their counts, TINY_PROPERTY_SCALE below) with Node 24 first on PATH.
# better-sqlite3 is the one dependency whose supported major differs (see below).
#
#   bash scripts/ci-node24.sh prepare    # installs Node 24 and better-sqlite3 13 (needs the registry)
#   bash scripts/ci-node24.sh test       # runs the tests (offline: `scripts/offline.sh bash scripts/ci-node24.sh test`)
#   bash scripts/ci-node24.sh            # both
# NODE24_DIR=/some/dir chooses where Node 24 goes.
set -euo pipefail
phase=${1:-all}
cd "$(dirname "$0")/.."
start=$(date +%s)

dir="${NODE24_DIR:-${TMPDIR:-/tmp}/tiny-node24}"
node24="$dir/node_modules/.bin/node"
sqlite13=13.2.0
if [ "$phase" != test ]; then
  if ! [ -x "$node24" ] || [[ "$("$node24" -p 'process.versions.node')" != 24.* ]]; then
    npm i --prefix "$dir" --no-audit --no-fund --loglevel=error node@24
  fi
  if ! [ -f "$dir/better-sqlite3-$sqlite13/node_modules/better-sqlite3/package.json" ]; then
    npm i --prefix "$dir/better-sqlite3-$sqlite13" --no-audit --no-fund --ignore-scripts --loglevel=error "better-sqlite3@$sqlite13"
  fi
  [ "$phase" = prepare ] && { echo "ci-node24: prepared in $(($(date +%s) - start))s"; exit 0; }
fi
version=$("$node24" -p 'process.versions.node')
[[ "$version" == 24.* ]] || { echo "ci-node24: expected Node 24, got $version" >&2; exit 1; }
echo "ci-node24: Node $version from the npm registry ($dir)"

# better-sqlite3: 12.x (what @tiny/ledger-sqlite pins, the last major that runs on Node 20) aborts on
# Node 24 (SIGABRT, `Assertion failed: (env) != nullptr` in Statement::~Statement when a statement
# is garbage-collected). Node 24 users take better-sqlite3 13 (Node >= 22), so this lane tests
# @tiny/ledger-sqlite against 13: its npm package ships N-API prebuilt binaries (nothing compiles,
# nothing is downloaded from elsewhere). The workspace link is swapped for the lane and put back.
link=packages/ledger-sqlite/node_modules/better-sqlite3
original=$(readlink "$link")
restore() { ln -sfn "$original" "$link"; }
trap restore EXIT
ln -sfn "$dir/better-sqlite3-$sqlite13/node_modules/better-sqlite3" "$link"

export PATH="$dir/node_modules/.bin:$PATH"
[[ "$(node -p 'process.versions.node')" == 24.* ]] || { echo "ci-node24: Node 24 is not first on PATH" >&2; exit 1; }
# Build outputs come from lane 1 (cache hits); every test runs again (--force: turbo's cache key
# does not include the Node version). Three packages at a time, as the root `pnpm test` runs them: with
# turbo's default of ten on 2 cores, CPU-bound property tests ran 10x slower than alone and one
# passed its 30 s limit; three finish the suite sooner (3m14s against 3m42s here) at under 2x.
pnpm turbo run build --output-logs=errors-only
# The reliability suite's properties at a quarter of their default counts (reliability/src/property-runs.ts):
# lane 1 ran them in full, this lane is for what Node 24 changes; the soak, SIGKILL crash and resume,
# code-mode's hostile programs, cancellation and deadlines keep their full counts.
export TINY_PROPERTY_SCALE=0.25
# Quiet like `pnpm test:all`: failing packages' logs, per-package counts, `N passed, N failed`.
node scripts/run-tests.mjs --force --only
echo "ci-node24: green on Node $version in $(($(date +%s) - start))s"
