#!/usr/bin/env bash
# Package-shape checks for every publishable package: publint, attw (ESM-only profile), the
# release plan (scripts/check-release-plan.mjs) and a release dry run. Run after `pnpm build`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# publint and attw per package, three packages at a time (each pack and check mostly waits on the disk
# and on starting Node); the logs are printed in package order, and any failure fails the script.
logs=$(mktemp -d)
check_one() {
  local dir=$1 log
  log="$2/$(basename "$dir").log"
  {
    echo "== $(node -p "require('./${dir}package.json').name")"
    (cd "$dir" && "$root/node_modules/.bin/publint" --strict) &&
      (cd "$dir" && "$root/node_modules/.bin/attw" --pack . --profile esm-only --format table-flipped)
  } >"$log" 2>&1 || echo "check-packages: $dir failed" >>"$log.failed"
}
export -f check_one
export root
printf '%s\n' packages/*/ | xargs -P 3 -I{} bash -c 'check_one "$1" "$2"' _ {} "$logs"
for dir in packages/*/; do cat "$logs/$(basename "$dir").log"; done
if ls "$logs"/*.failed >/dev/null 2>&1; then cat "$logs"/*.failed >&2; exit 1; fi
rm -rf "$logs"
echo "== changeset status"
pnpm changeset status
# No 0.x package planned at 1.0.0, no private package versioned, no @tiny peer dependency.
node scripts/check-release-plan.mjs
echo "== publish dry run"
log=$(mktemp)
if ! pnpm -r --filter './packages/*' publish --dry-run --no-git-checks >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
grep -E '^\+ ' "$log"
rm -f "$log"
