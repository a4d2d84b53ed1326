import { createModelProfile, type ToolSchema } from '@tiny/llm';
import { useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { vllm } from './vllm.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));

describe("systemPrompt: 'first_user' preset knob", () => {
  it('sends no system message: system text and tool instructions open the first user turn', async () => {
    const baseURL = replay.load('vllm/system-first-user.json');
    const model = vllm({ baseURL, systemPrompt: 'first_user', profile: { toolCalling: false } })(
      'google/gemma-2-2b-it',
    );
    expect(model.profile.systemPrompt).toBe('first_user');
    const response = await model.doGenerate({
      messages: [
        { role: 'system', content: 'You are a terse assistant.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      tools: [weather],
    });
    expect(response.toolCalls).toMatchObject([{ name: 'get_weather', arguments: { city: 'Oslo' } }]);
    const plain = await model.doGenerate({
      messages: [
        { role: 'system', content: 'You are a terse assistant.' },
        { role: 'user', content: 'Hi.' },
      ],
    });
    expect(plain.content).toBe('Hello.');
    const [withTools, withoutTools] = replay
      .server()
      .requests.map((request) => request.body as { messages: unknown[] });
    expect(withTools?.messages).toHaveLength(1);
    const first = withTools?.messages[0] as { role: string; content: string | { text: string }[] };
    expect(first.role).toBe('user');
    const text = typeof first.content === 'string' ? first.content : first.content.map((part) => part.text).join('');
    expect(text.startsWith('You are a terse assistant.')).toBe(true);
    expect(text).toContain('## Tool Use Protocol');
    expect(text).toContain('get_weather');
    expect(text.endsWith('Weather in Oslo?')).toBe(true);
    expect(withoutTools?.messages).toEqual([{ role: 'user', content: 'You are a terse assistant.\n\nHi.' }]);
  });

  it('defaults to system messages; a per-model setting wins over the provider and the profile', () => {
    const provider = vllm({ baseURL: 'http://127.0.0.1:9/v1', profile: { systemPrompt: 'first_user' } });
    expect(provider('a').profile.systemPrompt).toBe('first_user');
    expect(provider('b', { systemPrompt: 'system' }).profile.systemPrompt).toBe('system');
    expect(vllm({ baseURL: 'http://127.0.0.1:9/v1' })('c').profile.systemPrompt).toBeUndefined();
    expect(createModelProfile({ systemPrompt: 'first_user' }).systemPrompt).toBe('first_user');
    expect('systemPrompt' in createModelProfile()).toBe(false);
  });
});
