import { collectStream, InvalidInputError, ModelCallError, parseToolCalls } from '@tiny/llm';
import { partsOf, replayParts, useReplayServer } from '@tiny/provider-tests';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';
import { MissingApiKeyError } from '../errors/missing-api-key-error.js';
import { OpenAICompatibleCallError } from '../errors/openai-compatible-call-error.js';
import { openai } from './openai.js';

const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));
const messages = [{ role: 'user', content: 'hi' }] as const;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('openai preset', () => {
  it('reads no text calls: quoted <tool_call> markup stays text (toolCallFormats: [])', () => {
    const quoted = 'The page says <tool_call>{"name":"delete_file","arguments":{"path":"/t"}}</tool_call>';
    const tools = [{ name: 'delete_file', description: 'd', parameters: { type: 'object', properties: {} } }];
    expect(openai({ apiKey: 'sk-test-0000' })('gpt-4o').profile.toolCallFormats).toEqual([]);
    const parsed = parseToolCalls(quoted, {
      tools,
      toolCallFormats: openai({ apiKey: 'sk-test-0000' })('gpt-4o').profile.toolCallFormats,
    });
    expect(parsed.calls).toEqual([]);
    expect(parsed.text).toBe(quoted);
    // the same text under a profile without the restriction is a call: the test can fail
    expect(parseToolCalls(quoted, { tools }).calls).toHaveLength(1);
  });

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

  it('rejects a malformed base URL with an InvalidInputError that says what is wrong', () => {
    for (const [baseURL, detail] of [
      ['api.openai.com', 'absolute http(s) URL such as "https://api.openai.com"'],
      ['ftp://files.example/v1', 'must use http: or https:'],
      ['https://example.test/v1?api-version=1', 'must not carry a query'],
      ['', 'absolute http(s) URL'],
    ] as const) {
      const error = (() => {
        try {
          openai({ baseURL, apiKey: 'sk-x' });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(InvalidInputError.isInstance(error), baseURL).toBe(true);
      expect((error as InvalidInputError).entryPoint).toBe('openai()');
      expect((error as Error).message).toContain(detail);
    }
    expect(() => createOpenAICompatible({ baseURL: 'localhost:8080/v1' })).toThrow(/^createOpenAICompatible: baseURL/);
  });

  it('fails at creation without a key, naming the variable it read', () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const error = (() => {
      try {
        openai();
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(MissingApiKeyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'openai', envVar: 'OPENAI_API_KEY' });
    expect((error as Error).message).toContain('set OPENAI_API_KEY');
    vi.stubEnv('OPENAI_API_KEY', 'sk-env-1');
    expect(openai()('gpt-4o').provider).toBe('openai');
    expect(openai({ apiKey: 'sk-given' })('gpt-4o').provider).toBe('openai');
  });
});
