import { collectStream, type Message, type ToolSchema } from '@tiny/llm';
import { partsOf, replayParts, streamOrderViolations, useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { ollama } from './ollama.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));

describe('ollama preset over recorded Ollama traffic', () => {
  it('tells calls apart by id when Ollama reuses index 0, and replays reasoning as `reasoning`', async () => {
    const model = ollama({ baseURL: replay.load('ollama/parallel-index-reuse.json') })('qwen3:4b');
    const user: Message = { role: 'user', content: 'Weather in Paris and Oslo?' };
    const result = await model.doStream({ messages: [user], tools: [weather] });
    const parts = await partsOf(result.stream);
    expect(streamOrderViolations(parts)).toEqual([]);
    const response = await collectStream(replayParts(parts));
    expect(response).toMatchObject({
      reasoning: 'The user wants two cities. I will call get_weather twice.',
      toolCalls: [
        { id: 'call_k3v8q1ze', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_w9n2p6xr', name: 'get_weather', arguments: { city: 'Oslo' } },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 184, outputTokens: 61, totalTokens: 245 },
    });

    const answer = await model.doGenerate({
      messages: [
        user,
        {
          role: 'assistant',
          content: '',
          reasoningContent: response.reasoning,
          toolCalls: response.toolCalls.map((call) => ({
            id: call.id,
            name: call.name,
            arguments: call.rawArguments ?? '',
          })),
        },
        { role: 'tool', toolCallId: 'call_k3v8q1ze', content: 'Paris: 18 C, clear' },
        { role: 'tool', toolCallId: 'call_w9n2p6xr', content: 'Oslo: 4 C, rain' },
      ],
    });
    expect(answer.content).toBe('Paris is clear at 18 C; Oslo has rain at 4 C.');
  });

  it('switches a model that does not support tools to prompt-guided tools, once, and remembers it', async () => {
    const provider = ollama({ baseURL: replay.load('ollama/tools-unsupported.json') });
    const first = provider('gemma2:2b');
    expect(first.profile.toolCalling).toBe(true);
    const user: Message = { role: 'user', content: 'Weather in Paris?' };
    const response = await first.doGenerate({ messages: [user], tools: [weather] });
    expect(response.toolCalls).toEqual([
      { id: 'text-1-0', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' },
    ]);
    expect(response.content).toBe('');
    expect(response.finishReason).toBe('tool_calls');
    expect(response.warnings).toEqual([
      {
        type: 'other',
        message:
          'ollama rejected native tools for gemma2:2b (registry.ollama.ai/library/gemma2:2b does not support tools); tools now go in the prompt and calls are read from the text',
      },
    ]);

    const second = provider('gemma2:2b');
    expect(second.profile.toolCalling).toBe(false);
    expect(second.promptGuided).toBe(true);
    const call = response.toolCalls[0];
    const final = await second.doGenerate({
      messages: [
        user,
        {
          role: 'assistant',
          content: response.content,
          toolCalls: [{ id: 'text-1-0', name: 'get_weather', arguments: call?.rawArguments ?? '' }],
        },
        { role: 'tool', toolCallId: 'text-1-0', toolName: 'get_weather', content: '18 C, clear' },
      ],
      tools: [weather],
    });
    expect(final).toMatchObject({ content: 'It is 18 C and clear in Paris.', toolCalls: [], warnings: [] });
  });
});
