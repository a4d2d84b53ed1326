#!/usr/bin/env bash
# Packs every publishable package and installs only the bottom layer into a fresh project outside
# the workspace with npm, then runs a script that imports it and executes a tool. Proves that
# "install only the layers you need" holds. Extend the list as layers gain content.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for dir in "$root"/packages/*/; do
  (cd "$dir" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
ls "$work/tarballs"

mkdir "$work/tools-only" && cd "$work/tools-only"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund "$work"/tarballs/tiny-tools-*.tgz >/dev/null
cat > check.mjs <<'JS'
import { defineTool, executeTool, ToolInputError } from '@tiny/tools';
const add = defineTool({
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  execute: ({ a, b }) => String(a + b),
});
const sum = await executeTool(add, { a: 2, b: 40 });
if (sum.output() !== '42') throw new Error(`expected 42, got ${sum.output()}`);
const refused = await executeTool(add, { a: 'two', b: 40 }).catch((error) => error);
if (!ToolInputError.isInstance(refused)) throw new Error('bad arguments were not refused');
console.log(`@tiny/tools alone: add(2, 40) = ${sum.output()}; bad input -> ${refused.message}`);
JS
node check.mjs
test ! -e node_modules/@tiny/llm || { echo "@tiny/llm was installed but not asked for"; exit 1; }
