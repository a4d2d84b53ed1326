import { collectStream, type ToolSchema } from '@tiny/llm';
import { partsOf, replayParts, streamOrderViolations, useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { llamacpp } from './llamacpp.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const clock: ToolSchema = { name: 'get_time', description: 'Get the current time in UTC.', parameters: {} };
const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));

describe('llamacpp preset over recorded llama-server traffic', () => {
  it('retries a stream without --jinja in prompt-guided mode: think block out, tags scrubbed, call recovered', async () => {
    const model = llamacpp({ baseURL: replay.load('llamacpp/jinja-required.json') })('qwen2.5-7b');
    const result = await model.doStream({
      messages: [{ role: 'user', content: 'Weather in Zürich?' }],
      tools: [weather],
    });
    expect(result.warnings[0]).toMatchObject({
      type: 'other',
      message: expect.stringContaining('tools param requires --jinja flag'),
    });
    const parts = await partsOf(result.stream);
    expect(streamOrderViolations(parts)).toEqual([]);
    for (const part of parts) if (part.type === 'text_delta') expect(part.delta).not.toMatch(/<\/?tool_call|<\/?think/);
    const response = await collectStream(replayParts(parts));
    expect(response).toMatchObject({
      content: 'Let me check.',
      reasoning: 'The user asks about Zürich; I should call the weather tool.',
      toolCalls: [{ id: 'text-1-0', name: 'get_weather', arguments: { city: 'Zürich' } }],
      finishReason: 'tool_calls',
      rawFinishReason: 'stop',
      usage: { inputTokens: 389, outputTokens: 58, totalTokens: 447 },
    });
    expect(model.profile.toolCalling).toBe(false);
  });

  it('sends a named choice as "required" with the tools narrowed, and JSON mode as a permissive schema', async () => {
    const model = llamacpp({ baseURL: replay.load('llamacpp/local-quirks.json') })('qwen2.5-7b');
    const forced = await model.doGenerate({
      messages: [{ role: 'user', content: 'Time?' }],
      tools: [weather, clock],
      toolChoice: { type: 'tool', toolName: 'get_time' },
    });
    expect(forced.toolCalls).toEqual([
      { id: 'Yf3kXw8Rj2LmNq0pT5vZ1bC7dE9gH4sA', name: 'get_time', arguments: {}, rawArguments: '{}' },
    ]);
    const json = await model.doGenerate({
      messages: [{ role: 'user', content: 'JSON please' }],
      responseFormat: { type: 'json' },
    });
    expect(JSON.parse(json.content)).toEqual({ city: 'Paris', ok: true });
    expect(json.warnings).toEqual([]);
  });
});
