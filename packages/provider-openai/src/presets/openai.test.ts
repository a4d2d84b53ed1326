import { collectStream, ModelCallError } from '@tiny/llm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpenAICompatibleCallError } from '../errors/openai-compatible-call-error.js';
import { partsOf, replayParts, useReplayServer } from '../replay.test-helper.js';
import { openai } from './openai.js';

const replay = useReplayServer();
const messages = [{ role: 'user', content: 'hi' }] as const;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('openai preset', () => {
  it('reads the key from OPENAI_API_KEY, sends max_completion_tokens, and handles the edge cases of the wire', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env-000000');
    const model = openai({ baseURL: replay.load('openai/edge-cases.json') })('gpt-4o');
    expect(model.provider).toBe('openai');

    const refused = await model.doGenerate({ messages, maxTokens: 50 });
    expect(refused).toMatchObject({
      content: '',
      refusal: "I'm sorry, I can't help with that.",
      finishReason: 'content_filter',
      usage: { inputTokens: 30, outputTokens: 9, totalTokens: 39, reasoningTokens: 4, cachedInputTokens: 16 },
    });
    expect(JSON.stringify(refused)).not.toContain('sk-from-env-000000');

    const error = await model.doGenerate({ messages }).catch((caught: unknown) => caught);
    expect(OpenAICompatibleCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true, providerMessage: 'The model is overloaded, try again.' });

    const json = await model.doStream({ messages });
    expect(await collectStream(json)).toMatchObject({
      content: 'pong',
      toolCalls: [{ id: 'call_j1', name: 'get_time', arguments: {} }],
      finishReason: 'tool_calls',
    });

    const dropped = await partsOf((await model.doStream({ messages })).stream);
    expect(dropped.at(-1)).toMatchObject({ type: 'error', error: { isRetryable: true, kind: 'incomplete_stream' } });
    await expect(collectStream(replayParts(dropped))).rejects.toSatisfy(ModelCallError.isInstance);

    const cut = await partsOf((await model.doStream({ messages })).stream);
    expect(cut.map((part) => part.type)).toEqual(['response_metadata', 'text_delta', 'error']);
    expect((cut[2] as { error: Error }).error.message).toBe('openai ended the stream before the model finished');
  });

  it('reports an unreachable server as a retryable error without the key', async () => {
    const model = openai({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-unreachable-0000' })('gpt-4o');
    replay.server().load({ exchanges: [] });
    const error = await model.doGenerate({ messages }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true, statusCode: undefined });
    expect(String((error as Error).message)).toMatch(
      /^openai request to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed/,
    );
    expect(String((error as Error).message)).not.toContain('sk-unreachable');
  });

  it('rejects a base URL that is not absolute', () => {
    expect(() => openai({ baseURL: 'api.openai.com' })).toThrow(TypeError);
  });
});
