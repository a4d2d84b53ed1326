import type { LanguageModelV1StreamPart } from '@tiny/llm';
import { describeSpliceClasses, useAnswerServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Splice classes a breaker found (issue 34, WIRE-3 fix), run by the shared suite over a real
// 127.0.0.1 server. Chunk shape from the OpenAI API reference (the chat completion chunk object:
// "Each chunk has the same ID"; the role comes in the first delta; `tool_calls[].index` is the
// call's position, its id sent with the call's first fragment); Ollama's OpenAI compatibility
// repeats the role on every chunk.

const chunk = (id: string | number | undefined, delta: Record<string, unknown>, finish: string | null = null) => ({
  ...(id === undefined ? {} : { id }),
  object: 'chat.completion.chunk',
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (index: number | undefined, id: string | number | undefined, name: string | undefined, args: string) => ({
  tool_calls: [
    {
      ...(index === undefined ? {} : { index }),
      ...(id === undefined ? {} : { id }),
      type: 'function',
      function: { ...(name === undefined ? {} : { name }), arguments: args },
    },
  ],
});
const sse = (...chunks: unknown[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const ls = [{ name: 'bash', arguments: { cmd: 'ls' } }];

describeSpliceClasses({
  name: 'OpenAI-compatible splice classes fail closed',
  create: (settings) => createOpenAICompatible(settings)('m'),
  wire: {
    // A second role chunk after content (same id): the choice restarted.
    slotReused: sse(
      chunk('c1', { role: 'assistant' }),
      chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"rm -rf /tmp/sa')),
      chunk('c1', { role: 'assistant', content: '' }),
      chunk('c1', call(0, 'call_2', 'bash', '{"cmd":"echo hi"}')),
      chunk('c1', {}, 'tool_calls'),
    ),
    // Fragments at two indexes under one call id (once merged into one call `ls -la; rm -rf ~`).
    oneIdTwoCalls: sse(
      chunk('c1', { role: 'assistant' }),
      chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls')),
      chunk('c1', call(1, 'call_1', 'bash', ' -la; rm -rf ~"}')),
      chunk('c1', {}, 'tool_calls'),
    ),
    // The finish under another completion id.
    identityBreak: sse(
      chunk('c1', { role: 'assistant' }),
      chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
      chunk('c2', {}, 'tool_calls'),
    ),
    moreViolations: {
      'chunks without an id, then a completion with one': sse(
        chunk(undefined, { role: 'assistant' }),
        chunk(undefined, call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c2', call(0, 'call_2', 'bash', '{"cmd":"rm"}')),
        chunk('c2', {}, 'tool_calls'),
      ),
      'an empty id, then another': sse(
        chunk('', { role: 'assistant' }),
        chunk('', call(0, 'call_1', 'bash', '{"cmd":"rm -rf /tmp/sa')),
        chunk('c2', { role: 'assistant' }),
        chunk('c2', call(0, 'call_2', 'bash', '{"cmd":"echo"}')),
        chunk('c2', {}, 'tool_calls'),
      ),
      'an id, then chunks without one': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk(undefined, call(1, 'call_2', 'bash', '{"cmd":"rm"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'a call renamed mid-call': sse(
        chunk('c1', call(0, 'call_1', 'read_file', '{"path":"/etc/hosts"}')),
        chunk('c1', call(0, undefined, 'bash', '')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'an index-only call that then names the id of another index': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c1', call(1, undefined, 'bash', '{"cmd":"rm"}')),
        chunk('c1', call(1, 'call_1', undefined, '')),
        chunk('c1', {}, 'tool_calls'),
      ),
      // Follow-up breaks (splice-cutoff brief, tester scripts a1/a1b).
      'an id first sent without an index, then at two indexes': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(undefined, 'call_1', 'bash', '{"cmd":"ls')),
        chunk('c1', call(0, 'call_1', undefined, '')),
        chunk('c1', call(1, 'call_1', undefined, ' -la; rm -rf ~"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'an id first sent without an index, then at indexes 3 and 7': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(undefined, 'call_1', 'bash', '')),
        chunk('c1', call(3, 'call_1', undefined, '{"cmd":"ls')),
        chunk('c1', call(7, 'call_1', undefined, '')),
        chunk('c1', call(7, undefined, undefined, '; rm -rf ~"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'one numeric call id at two indexes': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 5, 'bash', '{"cmd":"ls')),
        chunk('c1', call(1, 5, undefined, ' -la; rm -rf ~"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'index 0 taking a new id while its call is unfinished (role on every chunk)': sse(
        chunk('c1', { role: 'assistant', ...call(0, 'call_1', 'bash', '{"cmd":"rm -rf /tmp/sa') }),
        chunk('c1', { role: 'assistant', content: '' }),
        chunk('c1', { role: 'assistant', ...call(0, 'call_2', 'bash', '{"cmd":"echo hi"}') }),
        chunk('c1', { role: 'assistant' }, 'tool_calls'),
      ),
      'index 0 taking a new id while its call is unfinished (role once)': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"rm -rf /tmp/sa')),
        chunk('c1', call(0, 'call_2', 'bash', '{"cmd":"echo hi"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'more of a call after another took its index': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c1', call(0, 'call_2', 'bash', '{"cmd":"pwd"}')),
        chunk('c1', call(0, 'call_1', undefined, ' ')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'a fragment with neither id nor index while two calls are unfinished': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls')),
        chunk('c1', call(1, 'call_2', 'bash', '{"cmd":"pwd')),
        chunk('c1', { tool_calls: [{ type: 'function', function: { arguments: '; rm -rf ~"}' } }] }),
        chunk('c1', {}, 'tool_calls'),
      ),
      // Found by reliability/src/openai-stream-fragment-mutations.test.ts: the index-less call ran with `{}`.
      'an index-only fragment at a new index while a call sent without an index is unfinished': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(undefined, 'call_a', 'bash', '')),
        chunk('c1', call(1, 'call_b', 'bash', '{"cmd":"pwd"}')),
        chunk('c1', call(0, undefined, undefined, '{"cmd":"ls"}')),
        chunk('c1', {}, 'tool_calls'),
      ),
      'numeric completion ids that differ': sse(
        chunk(1, { role: 'assistant' }),
        chunk(1, call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk(2, call(1, 'call_2', 'bash', '{"cmd":"rm -rf ~"}')),
        chunk(2, {}, 'tool_calls'),
      ),
      'one choice listed twice in a chunk': sse(
        chunk('c1', { role: 'assistant' }),
        {
          id: 'c1',
          choices: [
            { index: 0, delta: call(0, 'call_1', 'bash', '{"cmd":"ls'), finish_reason: null },
            { index: 0, delta: call(0, undefined, undefined, '; rm -rf ~"}'), finish_reason: null },
          ],
        },
        chunk('c1', {}, 'tool_calls'),
      ),
      'a legacy function_call next to tool_calls': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        chunk('c1', { function_call: { name: 'bash', arguments: '{"cmd":"rm -rf ~"}' } }),
        chunk('c1', {}, 'tool_calls'),
      ),
      'a message with a call next to an empty delta after the finish': sse(
        chunk('c1', { role: 'assistant' }),
        chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
        { id: 'c1', choices: [{ index: 0, finish_reason: 'tool_calls' }] },
        { id: 'c1', choices: [{ index: 0, delta: {}, message: call(1, 'call_2', 'bash', '{"cmd":"rm"}') }] },
      ),
    },
    clean: {
      'Azure: a prompt-filter chunk with an empty id and no choices first': {
        body: sse(
          { id: '', object: '', model: '', choices: [], prompt_filter_results: [] },
          chunk('c1', { role: 'assistant' }),
          chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
          chunk('c1', {}, 'tool_calls'),
          { id: 'c1', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } },
        ),
        calls: ls,
      },
      'Ollama: the role on every chunk, the name and id repeated': {
        body: sse(
          chunk('c1', { role: 'assistant', content: '' }),
          chunk('c1', { role: 'assistant', ...call(0, 'call_1', 'bash', '{"cmd":') }),
          chunk('c1', { role: 'assistant', ...call(0, 'call_1', 'bash', '"ls"}') }),
          chunk('c1', { role: 'assistant', content: '' }, 'tool_calls'),
        ),
        calls: ls,
      },
      'no id on any chunk': {
        body: sse(
          chunk(undefined, { role: 'assistant' }),
          chunk(undefined, call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
          chunk(undefined, {}, 'tool_calls'),
        ),
        calls: ls,
      },
      'Ollama: index 0 reused for each whole call': {
        body: sse(
          chunk('c1', { role: 'assistant', ...call(0, 'call_1', 'bash', '{"cmd":"ls"}') }),
          chunk('c1', { role: 'assistant', ...call(0, 'call_2', 'bash', '{"cmd":"pwd"}') }),
          chunk('c1', { role: 'assistant' }, 'tool_calls'),
        ),
        calls: [
          { id: 'call_1', name: 'bash', arguments: { cmd: 'ls' } },
          { id: 'call_2', name: 'bash', arguments: { cmd: 'pwd' } },
        ],
      },
      'numeric completion and call ids, one completion': {
        body: sse(
          chunk(7, { role: 'assistant' }),
          chunk(7, call(0, 1, 'bash', '{"cmd":')),
          chunk(7, call(0, 1, undefined, '"ls"}')),
          chunk(7, {}, 'tool_calls'),
        ),
        calls: [{ id: '1', name: 'bash', arguments: { cmd: 'ls' } }],
      },
      'index-less calls one after another, continuations without id': {
        body: sse(
          chunk('c1', { role: 'assistant' }),
          chunk('c1', call(undefined, 'call_1', 'bash', '{"cmd":')),
          chunk('c1', { tool_calls: [{ function: { arguments: '"ls"}' } }] }),
          chunk('c1', call(undefined, 'call_2', 'bash', '{"cmd":')),
          chunk('c1', { tool_calls: [{ function: { arguments: '"pwd"}' } }] }),
          chunk('c1', {}, 'tool_calls'),
        ),
        calls: [
          { id: 'call_1', name: 'bash', arguments: { cmd: 'ls' } },
          { id: 'call_2', name: 'bash', arguments: { cmd: 'pwd' } },
        ],
      },
      'two calls at two indexes, each id sent once': {
        body: sse(
          chunk('c1', { role: 'assistant' }),
          chunk('c1', call(0, 'call_1', 'bash', '{"cmd":')),
          chunk('c1', call(1, 'call_2', 'bash', '{"cmd":"pwd"}')),
          chunk('c1', call(0, undefined, undefined, '"ls"}')),
          chunk('c1', {}, 'tool_calls'),
        ),
        calls: [
          { id: 'call_1', name: 'bash', arguments: { cmd: 'ls' } },
          { id: 'call_2', name: 'bash', arguments: { cmd: 'pwd' } },
        ],
      },
    },
  },
});

describe('OpenAI-compatible stream: a data line holding a JSON array', () => {
  const server = useAnswerServer();
  const streamed = async (body: string) => {
    server.answer({ type: 'text/event-stream', body });
    const model = createOpenAICompatible({ baseURL: server.baseURL(), apiKey: 'sk-splice-0000' })('m');
    const parts: LanguageModelV1StreamPart[] = [];
    for await (const part of (await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream)
      parts.push(part);
    return parts;
  };

  it('is no chunk: invalid_chunk before the finish, no call delivered (once only its first element was read)', async () => {
    const parts = await streamed(
      sse(
        chunk('c1', { role: 'assistant' }),
        [
          chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}')),
          chunk('c2', call(0, 'call_9', 'bash', '{"cmd":"rm"}')),
        ],
        chunk('c1', {}, 'tool_calls'),
      ),
    );
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: { kind: 'invalid_chunk' } });
    expect(parts.some((part) => part.type === 'tool_call_end' || part.type === 'finish')).toBe(false);
  });

  it('after the finish, ends the turn as error so no call runs', async () => {
    const parts = await streamed(
      sse(chunk('c1', { role: 'assistant' }), chunk('c1', call(0, 'call_1', 'bash', '{"cmd":"ls"}'), 'tool_calls'), [
        chunk('c1', {}),
        chunk('c2', call(0, 'call_9', 'bash', '{"cmd":"rm"}')),
      ]),
    );
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });
});
