import { collectStream, ModelCallError, type ToolSchema } from '@tiny/llm';
import { partsOf, replayParts, streamOrderViolations, useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { OpenAICompatibleCallError } from '../errors/openai-compatible-call-error.js';
import { vllm } from './vllm.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));

describe('vllm preset over recorded vLLM traffic', () => {
  it('reads reasoning_content and a call whose arguments follow its name, then a mid-stream error', async () => {
    const model = vllm({ baseURL: replay.load('vllm/stream.json') })('Qwen/Qwen3-8B');
    const result = await model.doStream({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weather],
    });
    const parts = await partsOf(result.stream);
    expect(streamOrderViolations(parts)).toEqual([]);
    expect(parts[0]).toEqual({
      type: 'response_metadata',
      id: 'chatcmpl-8f0e2b7c1d4a4c7e9b3f5a6d2e1c0b9a',
      modelId: 'Qwen/Qwen3-8B',
    });
    expect(await collectStream(replayParts(parts))).toMatchObject({
      reasoning: 'Need the weather tool.',
      toolCalls: [
        {
          id: 'chatcmpl-tool-5c2d9e8f1a3b4c6d',
          name: 'get_weather',
          arguments: { city: 'Paris' },
          rawArguments: '{"city": "Paris"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 210, outputTokens: 52, totalTokens: 262 },
    });

    const failing = await model.doStream({ messages: [{ role: 'user', content: 'Count.' }] });
    const failed = await partsOf(failing.stream);
    expect(failed.map((part) => part.type)).toEqual(['response_metadata', 'text_delta', 'error']);
    const error = (failed[2] as { error: unknown }).error;
    expect(OpenAICompatibleCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 500,
      errorCode: '500',
      kind: 'server_error',
      isRetryable: true,
      providerMessage: 'The engine crashed; the request was aborted.',
      errorType: 'InternalServerError',
    });
    await expect(collectStream(replayParts(failed))).rejects.toSatisfy(ModelCallError.isInstance);
  });

  it('falls back to prompt-guided tools when the server has no tool parser', async () => {
    const model = vllm({ baseURL: replay.load('vllm/auto-tool-choice.json') })('Qwen/Qwen3-8B');
    const response = await model.doGenerate({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weather],
    });
    expect(response.toolCalls).toMatchObject([{ id: 'text-1-0', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(response.content).toBe('');
    expect(response.warnings).toHaveLength(1);
  });
});
