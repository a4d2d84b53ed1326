#!/usr/bin/env bash
# Installs the packed packages (scripts/pack-all.mjs: the README's "Use it before it is on npm" way,
# tarballs with workspace ranges resolved) layer by layer into fresh npm projects outside the
# workspace and runs a small program in each (a tool, a parsed call, an agent on the testkit's
# scripted model, ...). Proves that the tarballs install with npm alone and that "install only the
# layers you need" holds. Extend the list as layers gain content: a `layer_<name>` function below
# and its name in `layers`.
#
#   bash scripts/layer-install-check.sh                # packs the packages itself
#   bash scripts/layer-install-check.sh <tarball-dir>  # installs tarballs pack-all.mjs already made (CI)
#
# The layers are independent npm projects: they run side by side (LAYER_INSTALL_JOBS at a time,
# default 6), each one's output printed whole in the order of `layers`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarballs=${1:-}
if [ -z "$tarballs" ]; then
  tarballs="$work/tarballs"
  node "$root/scripts/pack-all.mjs" --out "$tarballs" >/dev/null
fi
tarballs=$(cd "$tarballs" && pwd)
ls "$tarballs"

# @tiny/tools alone: a tool runs and bad arguments are refused, no other layer installed.
layer_tools_only() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz >/dev/null
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
}

# @tiny/llm on top of @tiny/tools: parse a call out of model text.
layer_llm() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { parseToolCalls } from '@tiny/llm';
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const parsed = parseToolCalls('Sure. <tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>', { tools });
if (parsed.calls.length !== 1 || parsed.calls[0].arguments.city !== 'Oslo') throw new Error(JSON.stringify(parsed));
console.log(`@tiny/llm: parsed ${parsed.calls[0].name}(${JSON.stringify(parsed.calls[0].arguments)}) from text`);
JS
  node check.mjs
  test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }
}

# @tiny/harness with its layers: run an agent on the testkit's scripted model.
layer_harness() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-harness-*.tgz >/dev/null
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
}

# Zod alone as the schema library: @tiny/tools, @tiny/harness and zod (no typebox), a typed tool
# whose Zod refinement and transform run through the library path after the JSON Schema gate.
layer_zod() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-harness-*.tgz zod@4.6.7 >/dev/null
  cat > check.mjs <<'JS'
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool } from '@tiny/tools';
import { z } from 'zod';
const greet = defineTool({
  name: 'greet',
  description: 'Greet someone.',
  parameters: z.object({ name: z.string().trim().min(1), times: z.number().int().refine((n) => n <= 3, 'at most 3') }),
  outputSchema: z.object({ text: z.string() }),
  execute: ({ name, times }) => ({ text: `hello ${name}`.repeat(times) }),
});
const model = new ScriptedModel({ steps: [
  { toolCalls: [scriptedToolCall('greet', { name: 'Ada', times: 9 }, 'c1'), scriptedToolCall('greet', { name: '  Ada ', times: 1 }, 'c2')] },
  { content: 'Greeted.' },
] });
const run = await new AgentHarness({ model, tools: [greet] }).invoke({}, [{ role: 'user', content: 'greet Ada' }]);
const [refused, ran] = run.messages.filter((message) => message.role === 'tool').map((message) => message.content);
if (!String(refused).includes('/times at most 3')) throw new Error(`refinement not applied: ${refused}`);
if (!String(ran).includes('"text": "hello Ada"')) throw new Error(`transform not applied: ${ran}`);
if (model.requests[0].tools[0].parameters.properties.name.minLength !== 1) throw new Error('no JSON Schema sent');
console.log(`zod only: refused -> ${refused.slice(0, 60)}...; ran -> ${String(ran).replace(/\s+/g, ' ')}`);
JS
  node check.mjs
  test ! -e node_modules/typebox || { echo "typebox was installed but not asked for"; exit 1; }
}

# @tiny/provider-openai on @tiny/llm: no harness installed; a lenient call over a stub fetch.
layer_provider() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-provider-utils-*.tgz "$tarballs"/tiny-provider-openai-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { createOpenAICompatible } from '@tiny/provider-openai';
const fetch = async () => Response.json({ choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{city: "Oslo",}' } }] } }] });
const model = createOpenAICompatible({ baseURL: 'http://127.0.0.1:1/v1', fetch })('m');
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const response = await model.doGenerate({ messages: [{ role: 'user', content: 'Oslo?' }], tools });
if (response.toolCalls[0]?.arguments.city !== 'Oslo') throw new Error(JSON.stringify(response));
console.log(`@tiny/provider-openai: repaired ${response.toolCalls[0].rawArguments} -> ${JSON.stringify(response.toolCalls[0].arguments)}`);
JS
  node check.mjs
  test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }
}

# @tiny/provider-anthropic on @tiny/llm: no harness installed; a streamed Messages API reply from a
# local server on 127.0.0.1, its input_json_delta pieces assembled and repaired.
layer_provider_anthropic() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-provider-utils-*.tgz "$tarballs"/tiny-provider-anthropic-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { createServer } from 'node:http';
import { collectStream } from '@tiny/llm';
import { AnthropicCallError, localMessages } from '@tiny/provider-anthropic';
const events = [
  { type: 'message_start', message: { id: 'msg_1', model: 'local', usage: { input_tokens: 12, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{city: "Os' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'lo",}' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
];
let calls = 0;
const server = createServer((request, response) => {
  calls += 1;
  if (calls === 2) {
    response.writeHead(529, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of events) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  response.end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const model = localMessages({ baseURL: `http://127.0.0.1:${server.address().port}/v1` })('local');
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const response = await collectStream(await model.doStream({ messages: [{ role: 'user', content: 'Oslo?' }], tools }));
if (response.toolCalls[0]?.arguments.city !== 'Oslo' || response.finishReason !== 'tool_calls') throw new Error(JSON.stringify(response));
const overloaded = await model.doGenerate({ messages: [{ role: 'user', content: 'again' }] }).catch((error) => error);
server.close();
if (!AnthropicCallError.isInstance(overloaded) || overloaded.kind !== 'overloaded' || !overloaded.isRetryable) throw new Error(String(overloaded));
console.log(`@tiny/provider-anthropic: streamed ${response.toolCalls[0].rawArguments} -> ${JSON.stringify(response.toolCalls[0].arguments)}; 529 -> ${overloaded.kind}, retryable`);
JS
  node check.mjs
  test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }
}

# @tiny/provider-openai-responses on @tiny/llm: no harness installed; a streamed Responses API reply
# from a local server on 127.0.0.1: a function call by call_id, its reasoning item kept for replay,
# and an incomplete turn whose call never runs.
layer_provider_openai_responses() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-provider-utils-*.tgz "$tarballs"/tiny-provider-openai-responses-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { createServer } from 'node:http';
import { collectStream } from '@tiny/llm';
import { localResponses } from '@tiny/provider-openai-responses';
const item = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' };
const reasoning = { id: 'rs_1', type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Look it up.' }] };
const events = (status) => [
  { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', model: 'gpt-oss', status: 'in_progress', output: [] } },
  { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...reasoning, content: [] } },
  { type: 'response.reasoning_text.delta', sequence_number: 2, output_index: 0, item_id: 'rs_1', delta: 'Look it up.' },
  { type: 'response.output_item.done', sequence_number: 3, output_index: 0, item: reasoning },
  { type: 'response.output_item.added', sequence_number: 4, output_index: 1, item: { ...item, status: 'in_progress', arguments: '' } },
  { type: 'response.function_call_arguments.delta', sequence_number: 5, output_index: 1, item_id: 'fc_1', delta: '{"city":"Oslo"}' },
  { type: 'response.output_item.done', sequence_number: 6, output_index: 1, item },
  status === 'completed'
    ? { type: 'response.completed', sequence_number: 7, response: { id: 'resp_1', status, usage: { input_tokens: 9, output_tokens: 7 } } }
    : { type: 'response.incomplete', sequence_number: 7, response: { id: 'resp_1', status, incomplete_details: { reason: 'max_output_tokens' } } },
];
let calls = 0;
const server = createServer((request, response) => {
  calls += 1;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of events(calls === 1 ? 'completed' : 'incomplete')) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  response.end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const model = localResponses({ baseURL: `http://127.0.0.1:${server.address().port}/v1` })('gpt-oss');
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const messages = [{ role: 'user', content: 'Oslo?' }];
const done = await collectStream(await model.doStream({ messages, tools }));
const cut = await collectStream(await model.doStream({ messages, tools }));
server.close();
if (done.toolCalls[0]?.arguments.city !== 'Oslo' || done.finishReason !== 'tool_calls' || done.reasoning !== 'Look it up.' || !done.reasoningSignature) throw new Error(JSON.stringify(done));
if (cut.finishReason !== 'length' || cut.toolCalls[0]?.invalid === undefined) throw new Error(JSON.stringify(cut));
console.log(`@tiny/provider-openai-responses: call ${done.toolCalls[0].id} -> ${JSON.stringify(done.toolCalls[0].arguments)}, reasoning kept for replay; incomplete -> ${cut.finishReason}, call refused`);
JS
  node check.mjs
  test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }
}

# @tiny/provider-google on @tiny/llm: no harness installed; a streamed Gemini reply from a local
# server on 127.0.0.1, the call's thought signature kept, then a 429 whose RetryInfo sets the wait.
layer_provider_google() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-provider-utils-*.tgz "$tarballs"/tiny-provider-google-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { createServer } from 'node:http';
import { collectStream } from '@tiny/llm';
import { createGoogle, GoogleCallError } from '@tiny/provider-google';
const chunks = [
  { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnbmF0dXJl' }] }, index: 0 }], responseId: 'r1' },
  { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, thoughtsTokenCount: 9 }, responseId: 'r1' },
];
let calls = 0;
const server = createServer((request, response) => {
  calls += 1;
  if (request.headers['x-goog-api-key'] !== 'AIza-check') response.writeHead(500).end();
  else if (calls === 2) {
    response.writeHead(429, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 429, message: 'Resource exhausted.', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }] } }));
  } else {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    response.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const model = createGoogle({ baseURL: `http://127.0.0.1:${server.address().port}/v1beta`, apiKey: 'AIza-check' })('gemini-2.5-flash');
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const response = await collectStream(await model.doStream({ messages: [{ role: 'user', content: 'Oslo?' }], tools }));
const [call] = response.toolCalls;
if (call?.arguments.city !== 'Oslo' || call.extraContent?.google?.thoughtSignature !== 'c2lnbmF0dXJl' || response.finishReason !== 'tool_calls') throw new Error(JSON.stringify(response));
const limited = await model.doGenerate({ messages: [{ role: 'user', content: 'again' }] }).catch((error) => error);
server.close();
if (!GoogleCallError.isInstance(limited) || limited.kind !== 'rate_limit' || limited.retryAfterMs !== 7000) throw new Error(String(limited));
console.log(`@tiny/provider-google: streamed ${JSON.stringify(call.arguments)} with its signature; 429 -> ${limited.kind}, retry in ${limited.retryAfterMs} ms`);
JS
  node check.mjs
  test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }
}

# @tiny/provider-ai-sdk on @tiny/llm: a real AI SDK provider from npm (@ai-sdk/openai-compatible, spec
# V3, the major that runs on Node 20) against a local server on 127.0.0.1; no harness, no `ai`.
layer_provider_ai_sdk() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-provider-utils-*.tgz "$tarballs"/tiny-provider-ai-sdk-*.tgz @ai-sdk/openai-compatible@2.0.92 zod@4.6.7 >/dev/null
  cat > check.mjs <<'JS'
import { createServer } from 'node:http';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { fromAiSdk } from '@tiny/provider-ai-sdk';
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({
    id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm',
    choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{city: "Oslo",}' } }] } }],
    usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
  }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const provider = createOpenAICompatible({ name: 'local', baseURL: `http://127.0.0.1:${server.address().port}/v1` });
const model = fromAiSdk(provider('m'));
const tools = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const response = await model.doGenerate({ messages: [{ role: 'user', content: 'Oslo?' }], tools });
server.close();
if (response.toolCalls[0]?.arguments.city !== 'Oslo' || response.usage.totalTokens !== 21) throw new Error(JSON.stringify(response));
console.log(`@tiny/provider-ai-sdk: ${model.provider}/${model.modelId} repaired ${response.toolCalls[0].rawArguments} -> ${JSON.stringify(response.toolCalls[0].arguments)}`);
JS
  node check.mjs
  test ! -e node_modules/@tiny/harness || { echo "@tiny/harness was installed but not asked for"; exit 1; }
  test ! -e node_modules/ai || { echo "the ai package was installed but never needed"; exit 1; }
}

# @tiny/structured with its layers: a typed answer from the scripted model.
layer_structured() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-structured-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel } from '@tiny/harness/testkit';
import { ResponseFormat, invokeStructured } from '@tiny/structured';
const model = new ScriptedModel({ profile: { structuredOutput: 'json_schema' }, steps: [{ content: '```json\n{"city": "Oslo", "celsius": -3}\n```' }] });
const schema = { type: 'object', required: ['city', 'celsius'], properties: { city: { type: 'string' }, celsius: { type: 'number' } } };
const result = await invokeStructured(new AgentHarness({ model }), {}, [{ role: 'user', content: 'Weather?' }], ResponseFormat.auto({ name: 'weather', schema }));
if (result.parsed.city !== 'Oslo') throw new Error(JSON.stringify(result));
console.log(`@tiny/structured: ${JSON.stringify(result.parsed)} via ${result.validation.strategy} (${result.validation.repair})`);
JS
  node check.mjs
}

# @tiny/ledger-sqlite with its peers: record a run's tool effects in a SQLite file.
layer_ledger_sqlite() {
  # $sqlite_prebuilds: see offer_sqlite_prebuild below (empty: download or compile).
  npm_config_better_sqlite3_local_prebuilds=$sqlite_prebuilds \
    npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-ledger-sqlite-*.tgz >/dev/null 2>&1
  cat > check.mjs <<'JS'
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { LedgerClosedError, SqliteToolEffectLedger } from '@tiny/ledger-sqlite';
import { defineTool } from '@tiny/tools';
const ledger = new SqliteToolEffectLedger({ path: 'ledger.db' });
const add = defineTool({
  name: 'add',
  description: 'Add.',
  parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  execute: ({ a, b }) => String(a + b),
});
const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('add', { a: 2, b: 40 })] }, { content: 'It is 42.' }] });
const run = await new AgentHarness({ model, tools: [add], ledger }).invoke({}, [{ role: 'user', content: '2 + 40?' }]);
const rows = await ledger.rows(run.runId);
if (rows.length !== 1 || rows[0].status !== 'completed') throw new Error(JSON.stringify(rows));
await ledger.close();
const closed = await ledger.unresolved(run.runId).catch((error) => error);
if (!LedgerClosedError.isInstance(closed)) throw new Error('no LedgerClosedError after close');
console.log(`@tiny/ledger-sqlite: ${run.text} ledger row ${rows[0].tool}: ${rows[0].status}`);
JS
  node check.mjs
}

# @tiny/mcp on the harness: an MCP server's tools as a toolset, against a real server from npm.
layer_mcp() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-mcp-[0-9]*.tgz @modelcontextprotocol/server-everything@2026.8.31 >/dev/null
  cat > check.mjs <<'JS'
import { createMcpToolSet, McpConnectionError } from '@tiny/mcp';
import { createRequire } from 'node:module';
const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const toolSet = await createMcpToolSet({ command: process.execPath, args: [server, 'stdio'], prefix: 'ev_' });
const tools = await toolSet.tools({ runId: 'check', turn: 0 });
const echo = await toolSet.call('ev_echo', { message: 'hi' }, { runId: 'check', turn: 1 });
if (echo.output() !== 'Echo: hi') throw new Error(echo.output());
await toolSet.close();
const closed = await toolSet.call('ev_echo', { message: 'x' }, { runId: 'check', turn: 2 }).catch((error) => error);
if (!McpConnectionError.isInstance(closed)) throw new Error('a closed toolset did not refuse');
console.log(`@tiny/mcp: ${tools.length} tools from ${toolSet.serverName}; ev_echo -> ${echo.output()}`);
JS
  node check.mjs
}

# @tiny/otel and @tiny/trace on top of the harness: trace a run with the OTel SDK, then render it.
layer_observe() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz \
    "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-otel-*.tgz "$tarballs"/tiny-trace-*.tgz \
    @opentelemetry/api@1.9.1 @opentelemetry/sdk-trace-base@2.12.1 >/dev/null
  cat > check.mjs <<'JS'
import { writeFileSync } from 'node:fs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createOtelListener } from '@tiny/otel';
import { recordEvents } from '@tiny/trace';
import { defineTool } from '@tiny/tools';
const add = defineTool({
  name: 'add',
  description: 'Add.',
  parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  execute: ({ a, b }) => String(a + b),
});
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('check');
const otel = createOtelListener({ tracer, modelName: 'scripted-model' });
const recorder = recordEvents({ forward: otel });
const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('add', { a: 2, b: 40 })] }, { content: 'It is 42.' }] });
await new AgentHarness({ model, tools: [add] }).invoke({}, [{ role: 'user', content: '2 + 40?' }], { onEvent: recorder.onEvent });
const names = exporter.getFinishedSpans().map((span) => span.name).sort();
if (names.join() !== 'chat scripted-model,chat scripted-model,execute_tool add,invoke_agent') throw new Error(names.join());
writeFileSync('run.json', JSON.stringify(recorder.recording));
console.log(`@tiny/otel: ${names.length} spans (${names.join(', ')})`);
JS
  node check.mjs
  npx --no-install tiny-trace run.json -o trace.html
  grep -q '<section class="turn" data-turn="2">' trace.html || { echo "tiny-trace did not render two turns"; exit 1; }
  echo "@tiny/trace: tiny-trace wrote trace.html ($(wc -c < trace.html) bytes)"
}

# @tiny/ui-stream on top of the harness: a run as the AI SDK UI message stream and as AG-UI events,
# with neither `ai` nor `@ag-ui/*` installed (the stream shapes are the package's own).
layer_ui_stream() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz \
    "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-ui-stream-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel } from '@tiny/harness/testkit';
import { handleChatRequest, toAgUiResponse } from '@tiny/ui-stream';
const harness = () => new AgentHarness({ model: new ScriptedModel({ steps: [{ content: 'Hello from tiny.' }] }) });
const body = { messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] };
const chat = await (await handleChatRequest(harness(), body)).text();
if (!chat.includes('"delta":"Hello') || !chat.includes('"type":"finish"')) throw new Error(chat);
const agUi = await toAgUiResponse(harness().stream('hi')).text();
if (!agUi.includes('"type":"RUN_FINISHED"')) throw new Error(agUi);
console.log(`@tiny/ui-stream: ${chat.split('\n\n').length - 1} UI message stream events, ${agUi.split('\n\n').length - 1} AG-UI events`);
JS
  node check.mjs
  test ! -e node_modules/ai || { echo "ai was installed but not asked for"; exit 1; }
}

# @tiny/code-mode on @tiny/harness: a program run in the QuickJS wasm sandbox (shipped in the npm
# package, nothing downloaded) makes three admitted nested calls; a refused one rejects inside it.
layer_code_mode() {
  npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz \
    "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-code-mode-*.tgz >/dev/null
  cat > check.mjs <<'JS'
import { codeModeTool } from '@tiny/code-mode';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
const add = {
  name: 'add',
  description: 'Adds two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }) => a + b,
};
const code = `let s = 0; for (const n of [1, 2, 3]) s = await add({ a: s, b: n });
const refused = await add({ a: 'x', b: 1 }).then(() => 'ran', (e) => e.message);
const looped = 'ts' as string;
return { s, refused: refused.includes('add'), looped };`;
const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }] });
const run = await new AgentHarness({ model, tools: [codeModeTool({ tools: [add] })] }).invoke({}, [{ role: 'user', content: 'go' }]);
const row = run.messages.find((message) => message.role === 'tool');
const { result } = JSON.parse(row.content);
if (result.s !== 6 || result.refused !== true || result.looped !== 'ts' || run.toolCalls !== 5) throw new Error(row.content);
const nested = run.events.filter((event) => event.type === 'tool_completed' && event.parentCallId === 'c1').map((event) => event.callId);
if (nested.join() !== 'c1/1,c1/2,c1/3') throw new Error(nested.join());
console.log(`@tiny/code-mode: program made ${nested.length} admitted nested calls (${nested.join(', ')}), result ${JSON.stringify(result)}`);
JS
  node check.mjs
}

# @tiny/restate on @tiny/harness: a real restate-server (npm binary package) on 127.0.0.1, the agent
# served from this process, an approval decided through the ingress.
layer_restate() {
  SCARF_ANALYTICS=false npm install --no-audit --no-fund "$tarballs"/tiny-tools-*.tgz "$tarballs"/tiny-llm-*.tgz "$tarballs"/tiny-harness-*.tgz "$tarballs"/tiny-restate-*.tgz @restatedev/restate-sdk@1.14.5 @restatedev/restate-server@1.7.12 >/dev/null
  cat > check.mjs <<'JS'
import { createServer } from 'node:http2';
import { createEndpointHandler } from '@restatedev/restate-sdk';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createRestateAgentService, RestateAgentClient, registerDeployment, startLocalRestateServer } from '@tiny/restate';
import { defineTool, ToolPolicy } from '@tiny/tools';
const pay = defineTool({
  name: 'pay', description: 'Pay.', parameters: { type: 'object', required: ['cents'], properties: { cents: { type: 'integer' } } },
  policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
  execute: ({ cents }) => `paid ${cents}`,
});
const model = new ScriptedModel({ repeatLast: true, steps: [(request) => request.messages.some((m) => m.role === 'tool')
  ? { content: 'Paid.' } : { toolCalls: [scriptedToolCall('pay', { cents: 5 }, 'pay-1')] }] });
const service = createRestateAgentService({ name: 'agent', harness: () => new AgentHarness({ model, tools: [pay] }) });
const server = await startLocalRestateServer();
const worker = createServer(createEndpointHandler({ services: [service] }));
try {
  await new Promise((resolve) => worker.listen(0, '127.0.0.1', resolve));
  await registerDeployment(server.adminUrl, `http://127.0.0.1:${worker.address().port}`);
  const client = new RestateAgentClient({ ingressUrl: server.ingressUrl, service: 'agent' });
  await client.start('r1', { messages: [{ role: 'user', content: 'pay' }] });
  const { calls } = await client.waitForPending('r1');
  await client.decide('r1', calls[0].callId, { kind: 'approve' });
  const result = await client.result('r1');
  if (result.text !== 'Paid.' || result.executedTools.join() !== 'pay') throw new Error(JSON.stringify(result));
  console.log(`@tiny/restate: approved ${calls[0].callId} through the ingress; final: ${result.text}`);
} finally {
  await server.stop();
  worker.close();
}
JS
  RESTATE_LOGGING=WARN node check.mjs
}
# ---- running the layers ---------------------------------------------------------------------

# better-sqlite3 (under @tiny/ledger-sqlite) fetches a prebuilt binary from GitHub, else compiles from
# source (~85 s of CPU where GitHub is out of reach, the stage's longest step). When the workspace
# holds the version the tarball pins, built for this Node by `pnpm install`, it is offered as a local
# prebuild named as prebuild-install's download would be (for layer_ledger_sqlite's install only);
# prebuild-install unpacks it and loads it before accepting it. Any other version, Node or libc finds
# no match and compiles as before.
sqlite_prebuilds=
offer_sqlite_prebuild() {
  local version built
  version=$(tar -xOzf "$tarballs"/tiny-ledger-sqlite-*.tgz package/package.json |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).dependencies["better-sqlite3"] ?? ""))')
  built="$root/node_modules/.pnpm/better-sqlite3@$version/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
  if [ -z "$version" ] || [ ! -f "$built" ]; then return 0; fi
  mkdir -p "$work/prebuilds/unpacked/build/Release"
  cp "$built" "$work/prebuilds/unpacked/build/Release/"
  tar -czf "$work/prebuilds/better-sqlite3-v$version-$(node -p '`node-v${process.versions.modules}-${process.platform}-${process.arch}`').tar.gz" \
    -C "$work/prebuilds/unpacked" build
  sqlite_prebuilds="$work/prebuilds"
  echo "layer-install-check: better-sqlite3 $version from the workspace's build"
}
offer_sqlite_prebuild

# In the order printed; `first` starts the slowest installs (a native module, the restate-server
# binary, an MCP server) before the rest.
layers=(tools-only llm harness zod provider provider-anthropic provider-openai-responses provider-google
  provider-ai-sdk structured ledger-sqlite mcp observe ui-stream code-mode restate)
first=(ledger-sqlite restate mcp observe provider-ai-sdk)
defined=$(declare -F | grep -c ' layer_')
if [ "$defined" -ne "${#layers[@]}" ]; then
  echo "layer-install-check: $defined layer_ functions but ${#layers[@]} names in layers" >&2
  exit 1
fi

# One layer: a fresh npm project in $work/<name> (what `npm init -y` and `npm pkg set type=module`
# write), its install and program, then the project removed.
run_layer() {
  local name=$1
  mkdir "$work/$name"
  cd "$work/$name"
  printf '{\n  "name": "%s",\n  "version": "1.0.0",\n  "type": "module"\n}\n' "$name" >package.json
  "layer_${name//-/_}"
  cd "$work"
  rm -rf "${work:?}/$name"
}

logs="$work/logs"
mkdir "$logs"
for name in "${first[@]}"; do
  [[ " ${layers[*]} " == *" $name "* ]] || { echo "layer-install-check: $name is in first, not in layers" >&2; exit 1; }
done
order=("${first[@]}")
for name in "${layers[@]}"; do
  [[ " ${first[*]} " == *" $name "* ]] || order+=("$name")
done
for name in "${order[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "${LAYER_INSTALL_JOBS:-6}" ]; do wait -n || true; done
  # errexit holds inside the layer (not a condition there); its status is written down outside.
  (
    set +e
    (
      set -euo pipefail
      run_layer "$name"
    ) >"$logs/$name.log" 2>&1
    echo $? >"$logs/$name.status"
  ) &
done
wait
failed=()
for name in "${layers[@]}"; do
  cat "$logs/$name.log"
  [ "$(cat "$logs/$name.status" 2>/dev/null)" = 0 ] || failed+=("$name")
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "layer-install-check: failed: ${failed[*]}" >&2
  exit 1
fi
