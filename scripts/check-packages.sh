#!/usr/bin/env bash
# Package-shape checks for every publishable package: publint, attw (ESM-only profile), the
# release plan (scripts/check-release-plan.mjs) and a release dry run. Run after `pnpm build`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
for dir in packages/*/; do
  name=$(node -p "require('./${dir}package.json').name")
  echo "== $name"
  (cd "$dir" && "$root/node_modules/.bin/publint" --strict)
  (cd "$dir" && "$root/node_modules/.bin/attw" --pack . --profile esm-only --format table-flipped)
done
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
