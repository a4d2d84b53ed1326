import { useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { ollama } from '../presets/ollama.js';

const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));
const weather = {
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gemma2:2b',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny.' }, finish_reason: 'stop' }],
};

describe('capabilities() and resetCapabilities()', () => {
  it('report a remembered fallback, and clearing it sends native tools again', async () => {
    replay.server().load({
      exchanges: [
        {
          request: { body: { tools: '$any' } },
          response: {
            status: 400,
            json: { error: { message: 'registry.ollama.ai/library/gemma2:2b does not support tools' } },
          },
        },
        { request: { body: { tools: { $absent: true } } }, response: { json: answer } },
        { request: { body: { tools: '$any' } }, response: { json: answer } },
      ],
    });
    const model = ollama({ baseURL: `${replay.server().url}/v1` })('gemma2:2b');
    expect(model.capabilities()).toEqual({
      promptGuidedTools: false,
      degradedFields: [],
      toolsWithoutStreaming: false,
    });
    const first = await model.doGenerate({ messages: [{ role: 'user', content: 'Weather?' }], tools: [weather] });
    expect(
      first.warnings.some((warning) => warning.type === 'other' && warning.message.includes('rejected native tools')),
    ).toBe(true);
    expect(model.capabilities().promptGuidedTools).toBe(true);
    expect(model.profile.toolCalling).toBe(false);
    model.resetCapabilities();
    expect(model.capabilities().promptGuidedTools).toBe(false);
    expect(model.profile.toolCalling).toBe(true);
    await model.doGenerate({ messages: [{ role: 'user', content: 'Weather?' }], tools: [weather] });
  });
});
