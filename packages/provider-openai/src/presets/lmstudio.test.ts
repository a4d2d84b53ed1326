import type { ToolSchema } from '@tiny/llm';
import { useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';
import { lmstudio } from './lmstudio.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const clock: ToolSchema = { name: 'get_time', description: 'Get the current time in UTC.', parameters: {} };
const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));

describe('LM Studio quirks', () => {
  it('retries once with the fallback form of a field a 400 blames, and remembers it (P3)', async () => {
    const provider = createOpenAICompatible({
      baseURL: replay.load('lmstudio/degraded-retries.json'),
      name: 'lmstudio',
    });
    const model = provider('qwen2.5-7b-instruct');
    const messages = [{ role: 'user', content: 'JSON please' }] as const;
    const first = await model.doGenerate({ messages, responseFormat: { type: 'json' } });
    expect(first.content).toBe('{"ok": true}');
    expect(first.warnings).toEqual([
      {
        type: 'unsupported_setting',
        setting: 'response_format',
        details:
          "lmstudio rejected it ('response_format.type' must be 'json_schema' or 'text'); sent in its fallback form from now on",
      },
    ]);
    const second = await provider('qwen2.5-7b-instruct').doGenerate({ messages, responseFormat: { type: 'json' } });
    expect(second).toMatchObject({ content: '{"ok": false}', warnings: [] });

    const forced = await model.doGenerate({
      messages,
      tools: [weather, clock],
      toolChoice: { type: 'tool', toolName: 'get_time' },
    });
    expect(forced.toolCalls).toEqual([{ id: '365174485', name: 'get_time', arguments: {}, rawArguments: '{}' }]);
    expect(forced.warnings).toMatchObject([{ type: 'unsupported_setting', setting: 'tool_choice' }]);
  });

  it('the preset sends the fallback forms from the start', async () => {
    const baseURL = replay.load('lmstudio/preset.json');
    const response = await lmstudio({ baseURL })('qwen2.5-7b-instruct').doGenerate({
      messages: [{ role: 'user', content: 'JSON' }],
      responseFormat: { type: 'json' },
    });
    expect(response).toMatchObject({ content: '{}', warnings: [] });
  });
});
