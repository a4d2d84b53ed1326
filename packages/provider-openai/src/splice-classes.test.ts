import { describeSpliceClasses } from '@tiny/provider-tests';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Splice classes a breaker found (issue 34, WIRE-3 fix), run by the shared suite over a real
// 127.0.0.1 server. Chunk shape from the OpenAI API reference (the chat completion chunk object:
// "Each chunk has the same ID"; the role comes in the first delta; `tool_calls[].index` is the
// call's position, its id sent with the call's first fragment); Ollama's OpenAI compatibility
// repeats the role on every chunk.

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
