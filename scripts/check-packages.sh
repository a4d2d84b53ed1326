#!/usr/bin/env bash
# Package-shape checks for every publishable package: publint, attw (ESM-only profile), the
# release plan (scripts/check-release-plan.mjs) and a release dry run. Run after `pnpm build`.
#
#   bash scripts/check-packages.sh                # packs the packages itself (scripts/pack-all.mjs)
#   bash scripts/check-packages.sh <tarball-dir>  # checks tarballs pack-all.mjs already made (CI)
#
# publint and attw read the packed tarballs, the very files npm would publish (each used to pack the
# package again: pnpm pack for publint, npm pack for `attw --pack`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
tarballs=${1:-}
if [ -z "$tarballs" ]; then
  tarballs="$logs/tarballs"
  node scripts/pack-all.mjs --out "$tarballs" >/dev/null
fi
tarballs=$(cd "$tarballs" && pwd)

# The release dry run packs everything once more through pnpm's publish path: it runs beside the
# per-package checks and is read at the end.
pnpm -r --filter './packages/*' publish --dry-run --no-git-checks >"$logs/publish.log" 2>&1 &
publish=$!

# publint and attw per package, three packages at a time; the logs are printed in package order, and
# any failure fails the script. A package with no tarball fails too.
# A private package (pack-all.mjs skips those) is packed for its checks as before.
check_one() {
  local dir=$1 log name tarball
  log="$2/$(basename "$dir").log"
  name=$(node -p "const m = require('./${dir}package.json'); m.private ? '' : m.name.replace(/^@/, '').replace('/', '-') + '-' + m.version")
  tarball="$tarballs/$name.tgz"
  {
    echo "== $(node -p "require('./${dir}package.json').name") (${name:-private, packed here}${name:+.tgz})"
    if [ -z "$name" ]; then
      (cd "$dir" && "$root/node_modules/.bin/publint" --strict) &&
        (cd "$dir" && "$root/node_modules/.bin/attw" --pack . --profile esm-only --format table-flipped)
    else
      test -f "$tarball" &&
        "$root/node_modules/.bin/publint" run --strict "$tarball" &&
        "$root/node_modules/.bin/attw" "$tarball" --profile esm-only --format table-flipped
    fi
  } >"$log" 2>&1 || echo "check-packages: $dir failed" >>"$log.failed"
}
export -f check_one
export root tarballs
printf '%s\n' packages/*/ | xargs -P 3 -I{} bash -c 'check_one "$1" "$2"' _ {} "$logs"
for dir in packages/*/; do cat "$logs/$(basename "$dir").log"; done
failed=0
if ls "$logs"/*.failed >/dev/null 2>&1; then cat "$logs"/*.failed >&2; failed=1; fi
echo "== changeset status"
pnpm changeset status || failed=1
# No 0.x package planned at 1.0.0, no private package versioned, no @tiny peer dependency.
node scripts/check-release-plan.mjs || failed=1
echo "== publish dry run"
if wait "$publish"; then
  grep -E '^\+ ' "$logs/publish.log"
else
  cat "$logs/publish.log"
  failed=1
fi
exit "$failed"
