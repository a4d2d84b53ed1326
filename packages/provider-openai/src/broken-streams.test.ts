import { readFileSync } from 'node:fs';
import { describeBrokenStreams } from '@tiny/provider-tests';
import { createOpenAICompatible } from './create-openai-compatible.js';

// The recorded llama.cpp answer of __fixtures__/agent/answer.sse: text chunks, the chunk with
// finish_reason "stop", a usage chunk, then [DONE]. Chat-completion streams name no event.
const recorded = readFileSync(new URL('./__fixtures__/agent/answer.sse', import.meta.url), 'utf8')
  .split(/\r?\n\r?\n/)
  .filter((event) => event.trim() !== '');
const terminal = recorded.findIndex((event) => event.includes('"finish_reason":"stop"'));

describeBrokenStreams({
  name: 'OpenAI-compatible: a broken stream never ends as a normal turn',
  create: (settings) => createOpenAICompatible(settings)('qwen2.5-7b-instruct-q4_k_m.gguf'),
  wire: { events: recorded, terminal, end: recorded.length - 1 },
});
