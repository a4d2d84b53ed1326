import { readFileSync } from 'node:fs';
import { describeBrokenStreams } from '@tiny/provider-tests';
import { createGoogle } from './create-google.js';

// The AI SDK's recorded google-text stream (see __fixtures__/google/SOURCE.md): three events, the
// last one carrying finishReason STOP. Gemini's alt=sse stream names no event.
const recorded = readFileSync(new URL('./__fixtures__/google/google-text.sse', import.meta.url), 'utf8')
  .split(/\r?\n\r?\n/)
  .filter((event) => event.trim() !== '');

describeBrokenStreams({
  name: 'Gemini: a broken stream never ends as a normal turn',
  create: (settings) => createGoogle(settings)('gemini-3-pro-preview'),
  wire: { events: recorded, terminal: recorded.length - 1 },
});
