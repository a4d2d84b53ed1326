import { readFileSync } from 'node:fs';
import { describeBrokenStreams } from '@tiny/provider-tests';
import { createOpenAIResponses } from './create-openai-responses.js';

// The recorded answer step of __fixtures__/responses/reasoning-agent-run.4.sse (a message item,
// then response.completed). Every event is named by its data's type.
const recorded = readFileSync(new URL('./__fixtures__/responses/reasoning-agent-run.4.sse', import.meta.url), 'utf8')
  .split(/\r?\n\r?\n/)
  .filter((event) => event.trim() !== '');
const terminal = recorded.findIndex((event) => event.startsWith('event: response.completed'));

describeBrokenStreams({
  name: 'Responses: a broken stream never ends as a normal turn',
  create: (settings) => createOpenAIResponses(settings)('gpt-5.1'),
  wire: { events: recorded, terminal, end: terminal, names: ['response.completed', 'response.output_text.delta'] },
});
