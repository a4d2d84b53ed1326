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

# @tiny/llm on top of @tiny/tools: parse a call out of model text.
mkdir "$work/llm" && cd "$work/llm"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund "$work"/tarballs/tiny-tools-*.tgz "$work"/tarballs/tiny-llm-*.tgz >/dev/null
cat > check.mjs <<'JS'
import { parseToolCalls } from '@tiny/llm';
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const parsed = parseToolCalls('Sure. <tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>', { tools });
if (parsed.calls.length !== 1 || parsed.calls[0].arguments.city !== 'Oslo') throw new Error(JSON.stringify(parsed));
console.log(`@tiny/llm: parsed ${parsed.calls[0].name}(${JSON.stringify(parsed.calls[0].arguments)}) from text`);
JS
node check.mjs
test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }

# @tiny/harness with its layers: run an agent on the testkit's scripted model.
mkdir "$work/harness" && cd "$work/harness"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund "$work"/tarballs/tiny-tools-*.tgz "$work"/tarballs/tiny-llm-*.tgz "$work"/tarballs/tiny-harness-*.tgz >/dev/null
cat > check.mjs <<'JS'
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool } from '@tiny/tools';
const add = defineTool({
  name: 'add',
  description: 'Add.',
  parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  execute: ({ a, b }) => String(a + b),
});
const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('add', { a: 2, b: 40 })] }, { content: 'It is 42.' }] });
const run = await new AgentHarness({ model, tools: [add] }).invoke({}, [{ role: 'user', content: '2 + 40?' }]);
const result = run.messages.find((message) => message.role === 'tool');
if (result?.content !== '42' || run.text !== 'It is 42.') throw new Error(JSON.stringify(run.messages));
console.log(`@tiny/harness: agent ran add -> ${result.content}; final: ${run.text}`);
JS
node check.mjs
