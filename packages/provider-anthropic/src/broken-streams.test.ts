import { readFileSync } from 'node:fs';
import { describeBrokenStreams } from '@tiny/provider-tests';
import { createAnthropic } from './create-anthropic.js';

// The answer turn of __fixtures__/anthropic/thinking-answer.sse (shapes of the streaming guide's
// event sequence): message_start, one text block, message_delta with stop_reason end_turn, then
// message_stop, which stays last.
const recorded = readFileSync(new URL('./__fixtures__/anthropic/thinking-answer.sse', import.meta.url), 'utf8')
  .split(/\r?\n\r?\n/)
  .filter((event) => event.trim() !== '');
const terminal = recorded.findIndex((event) => event.startsWith('event: message_delta'));

describeBrokenStreams({
  name: 'Anthropic: a broken stream never ends as a normal turn',
  create: (settings) => createAnthropic(settings)('claude-sonnet-4-5'),
  wire: { events: recorded, terminal, end: recorded.length - 1, names: ['message_stop', 'content_block_delta'] },
});
