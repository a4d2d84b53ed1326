import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Splice classes a breaker found (issue 34, WIRE-3 fix), over a real 127.0.0.1 server. Chunk shape
// from the OpenAI API reference (the chat completion chunk object: "Each chunk has the same ID"; the
// role comes in the first delta); Ollama's OpenAI compatibility repeats the role on every chunk.

let answer = '';
let server: Server;
let baseURL = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const chunk = (id: string | undefined, delta: Record<string, unknown>, finish: string | null = null) => ({
  ...(id === undefined ? {} : { id }),
  object: 'chat.completion.chunk',
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (index: number, id: string | undefined, name: string | undefined, args: string) => ({
  tool_calls: [
    {
      index,
      ...(id === undefined ? {} : { id }),
      type: 'function',
      function: { ...(name === undefined ? {} : { name }), arguments: args },
    },
  ],
});
const sse = (...chunks: unknown[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;

async function streamed(body: string): Promise<LanguageModelV1StreamPart[]> {
  answer = body;
  const model = createOpenAICompatible({ baseURL, apiKey: 'sk-splice-0000' })('m');
  const out: LanguageModelV1StreamPart[] = [];
  for await (const part of (await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream)
    out.push(part);
  return out;
}

async function settle(parts: LanguageModelV1StreamPart[]) {
  return collectStreamSettled(
    (async function* () {
      yield* parts;
    })(),
  );
}

describe('OpenAI-compatible splice classes fail closed', () => {
  it.each([
    [
      'chunks without an id, then a completion with one',
      sse(
        chunk(undefined, { role: 'assistant' }),
        chunk(undefined, call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c2', call(0, 'call_2', 'bash', '{"cmd":"rm"}')),
        chunk('c2', {}, 'tool_calls'),
      ),
    ],
    [
      'an empty id, then another',
      sse(
        chunk('', { role: 'assistant' }),
        chunk('', call(0, 'call_1', 'bash', '{"cmd":"rm -rf /tmp/sa')),
        chunk('c2', { role: 'assistant' }),
        chunk('c2', call(0, 'call_2', 'bash', '{"cmd":"echo"}')),
        chunk('c2', {}, 'tool_calls'),
      ),
    ],
    [
      'an id, then chunks without one',
      sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk(undefined, call(1, 'call_2', 'bash', '{"cmd":"rm"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
    ],
    [
      'the finish under another id',
      sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c2', {}, 'tool_calls'),
      ),
    ],
    [
      'a second role chunk after content (same id)',
      sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"rm -rf /tmp/sa')),
        chunk('c1', { role: 'assistant', content: '' }),
        chunk('c1', call(0, 'call_2', 'bash', '{"cmd":"echo hi"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
    ],
    [
      'a call renamed mid-call',
      sse(
        chunk('c1', call(0, 'call_1', 'read_file', '{"path":"/etc/hosts"}')),
        chunk('c1', call(0, undefined, 'bash', '')),
        chunk('c1', {}, 'tool_calls'),
      ),
    ],
  ])('%s: a protocol violation, every call invalid', async (_name, body) => {
    const parts = await streamed(body);
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'protocol_violation',
      isRetryable: false,
    });
    const settled = await settle(parts);
    expect(settled.response.toolCalls.length).toBeGreaterThan(0);
    for (const toolCall of settled.response.toolCalls) expect(toolCall.invalid).toBeDefined();
  });

  it.each([
    [
      'Azure: a prompt-filter chunk with an empty id and no choices first',
      sse(
        { id: '', object: '', model: '', choices: [], prompt_filter_results: [] },
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c1', {}, 'tool_calls'),
        { id: 'c1', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } },
      ),
    ],
    [
      'Ollama: the role on every chunk, the name repeated',
      sse(
        chunk('c1', { role: 'assistant', content: '' }),
        chunk('c1', { role: 'assistant', ...call(0, 'call_1', 'bash', '{"cmd":') }),
        chunk('c1', { role: 'assistant', ...call(0, 'call_1', 'bash', '"ls"}') }),
        chunk('c1', { role: 'assistant', content: '' }, 'tool_calls'),
      ),
    ],
    [
      'no id on any chunk',
      sse(
        chunk(undefined, { role: 'assistant' }),
        chunk(undefined, call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk(undefined, {}, 'tool_calls'),
      ),
    ],
  ])('%s: one clean completion runs its call', async (_name, body) => {
    const parts = await streamed(body);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    const settled = await settle(parts);
    expect(settled.response.toolCalls).toMatchObject([{ name: 'bash', arguments: { cmd: 'ls' } }]);
    expect(settled.response.toolCalls[0]?.invalid).toBeUndefined();
  });
});
