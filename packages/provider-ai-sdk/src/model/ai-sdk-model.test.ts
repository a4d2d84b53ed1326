import {
  APICallError,
  type LanguageModelV2,
  type LanguageModelV2StreamPart,
  type LanguageModelV3,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { collectStream, type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromAiSdk } from '../from-ai-sdk.js';

const usageV3 = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
  outputTokens: { total: 50, text: 30, reasoning: 20 },
};
const stop = { unified: 'tool-calls', raw: 'tool_use' } as const;

function stream<T>(parts: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

async function all(parts: AsyncIterable<LanguageModelV1StreamPart>): Promise<LanguageModelV1StreamPart[]> {
  const out: LanguageModelV1StreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const weather = {
  name: 'get_weather',
  description: 'Weather.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', format: 'hostname', minLength: 1 } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('fromAiSdk with MockLanguageModelV3 (ai/test)', () => {
  it('maps the request in: prompt, function tools, tool choice, response format, settings, headers, provider options', async () => {
    const generate: LanguageModelV3GenerateResult = {
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'STOP' },
      usage: usageV3,
      warnings: [{ type: 'unsupported', feature: 'seed', details: 'no seed here' }],
    };
    const mock = new MockLanguageModelV3({ provider: 'openai.chat', modelId: 'gpt-x', doGenerate: generate });
    const controller = new AbortController();
    const model = fromAiSdk(mock);
    const response = await model.doGenerate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'image', mediaType: 'image/png', data: { kind: 'base64', value: 'iVBOR' } },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'reasoning', text: 'think', signature: 'sig-1' }],
          toolCalls: [
            {
              id: 'c1',
              name: 'get_weather',
              arguments: '{"city":"Oslo"}',
              extraContent: { google: { thoughtSignature: 'ts' } },
            },
          ],
        },
        { role: 'tool', toolCallId: 'c1', content: 'snow', isError: true },
      ],
      tools: [weather],
      toolChoice: { type: 'tool', toolName: 'get_weather' },
      responseFormat: { type: 'json_schema', name: 'report', schema: { type: 'object' } },
      maxTokens: 99,
      temperature: 0.1,
      stopSequences: ['END'],
      seed: 3,
      headers: { 'x-test': '1' },
      providerOptions: { openai: { user: 'u' } },
      abortSignal: controller.signal,
    });
    const sent = mock.doGenerateCalls[0];
    expect(sent?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'file', mediaType: 'image/png', data: 'iVBOR' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'think', providerOptions: { openai: { signature: 'sig-1' } } },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'get_weather',
            input: { city: 'Oslo' },
            providerOptions: { google: { thoughtSignature: 'ts' } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_weather',
            output: { type: 'error-text', value: 'snow' },
          },
        ],
      },
    ]);
    expect(sent?.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather.', inputSchema: weather.parameters },
    ]);
    expect(sent?.toolChoice).toEqual({ type: 'tool', toolName: 'get_weather' });
    expect(sent?.responseFormat).toEqual({ type: 'json', schema: { type: 'object' }, name: 'report' });
    expect([sent?.maxOutputTokens, sent?.temperature, sent?.stopSequences, sent?.seed]).toEqual([99, 0.1, ['END'], 3]);
    expect(sent?.headers).toEqual({ 'x-test': '1' });
    expect(sent?.providerOptions).toEqual({ openai: { user: 'u' } });
    expect(sent?.abortSignal).toBe(controller.signal);
    expect(response).toMatchObject({
      content: 'ok',
      finishReason: 'stop',
      rawFinishReason: 'STOP',
      usage: { inputTokens: 120, outputTokens: 50, totalTokens: 170, cachedInputTokens: 100, reasoningTokens: 20 },
      warnings: [{ type: 'unsupported_setting', setting: 'seed', details: 'no seed here' }],
    });
    expect(model.profile.structuredOutput).toBe('json_schema');
  });

  it('decodes tool inputs through the invalid-call path, keeps provider metadata and skips provider-executed calls', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      doGenerate: {
        content: [
          { type: 'reasoning', text: 'hmm', providerMetadata: { anthropic: { signature: 'EqQB' } } },
          {
            type: 'tool-call',
            toolCallId: 's1',
            toolName: 'web_search',
            input: '{"query":"x"}',
            providerExecuted: true,
          },
          { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', result: [{ url: 'https://x.test' }] },
          { type: 'tool-call', toolCallId: 'a', toolName: 'get_weather', input: '{city: "Paris",}' },
          { type: 'tool-call', toolCallId: 'b', toolName: 'get_weather', input: '{"city": "Os' },
          {
            type: 'tool-call',
            toolCallId: 'c',
            toolName: 'get_time',
            input: '',
            providerMetadata: { google: { thoughtSignature: 'x' } },
          },
        ],
        finishReason: stop,
        usage: usageV3,
        warnings: [],
      },
    });
    const response = await fromAiSdk(mock).doGenerate({ messages: [{ role: 'user', content: 'go' }] });
    expect(response.reasoning).toBe('hmm');
    expect(response.reasoningSignature).toBe('EqQB');
    expect(response.toolCalls.map((call) => [call.id, call.arguments, call.invalid === undefined])).toEqual([
      ['a', { city: 'Paris' }, true],
      ['b', '{"city": "Os', false],
      ['c', {}, true],
    ]);
    expect(response.toolCalls[2]?.extraContent).toEqual({ google: { thoughtSignature: 'x' } });
    expect([response.finishReason, response.rawFinishReason]).toEqual(['tool_calls', 'tool_use']);
  });

  it('streams text, reasoning with its signature and tool input deltas; provider-executed parts and raw chunks left out', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [{ type: 'other', message: 'heads up' }] },
      { type: 'response-metadata', id: 'r1', modelId: 'm-2025' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'thinking' },
      { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'SIG' } } },
      { type: 'raw', rawValue: { anything: true } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 's1', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id: 's1', delta: '{}' },
      { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'tool-input-start', id: 'c1', toolName: 'get_weather' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"city":' },
      { type: 'tool-input-delta', id: 'c1', delta: '"Oslo"}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'get_time', input: '{}' },
      { type: 'finish', finishReason: stop, usage: usageV3 },
    ];
    const mock = new MockLanguageModelV3({ provider: 'anthropic.messages', doStream: { stream: stream(parts) } });
    const result = await fromAiSdk(mock).doStream({ messages: [{ role: 'user', content: 'go' }] });
    expect(result.warnings).toEqual([{ type: 'other', message: 'heads up' }]);
    const out = await all(result.stream);
    expect(out.map((part) => part.type)).toEqual([
      'response_metadata',
      'reasoning_delta',
      'reasoning_delta',
      'text_delta',
      'text_delta',
      'tool_call_start',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_end',
      'tool_call_start',
      'tool_call_end',
      'finish',
    ]);
    const response = await collectStream(
      (async function* () {
        yield* out;
      })(),
    );
    expect(response).toMatchObject({
      id: 'r1',
      modelId: 'm-2025',
      content: 'Hello',
      reasoning: 'thinking',
      reasoningSignature: 'SIG',
    });
    expect(response.toolCalls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['c1', 'get_weather', { city: 'Oslo' }],
      ['c2', 'get_time', {}],
    ]);
  });

  it('turns an APICallError into a ModelCallError with status, retryability and retry-after, the key scrubbed', async () => {
    const key = 'sk-secret-abcdef';
    const failure = new APICallError({
      message: `Rate limited for key ${key}`,
      url: 'http://127.0.0.1/v1',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'retry-after': '3' },
      responseBody: `{"error":"slow down ${key}"}`,
      isRetryable: true,
    });
    const mock = new MockLanguageModelV3({
      doGenerate: () => Promise.reject(failure),
      doStream: {
        stream: stream<LanguageModelV3StreamPart>([
          { type: 'stream-start', warnings: [] },
          { type: 'error', error: failure },
        ]),
      },
    });
    const model = fromAiSdk(mock, { secrets: [key] });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    const typed = error as ModelCallError;
    expect([typed.statusCode, typed.isRetryable, typed.retryAfterMs]).toEqual([429, true, 3000]);
    expect(`${typed.message}${typed.responseBody}`).not.toContain(key);
    const parts = await all((await model.doStream({ messages: [{ role: 'user', content: 'x' }] })).stream);
    expect(parts).toHaveLength(1);
    const streamed = parts[0]?.type === 'error' ? (parts[0].error as ModelCallError) : undefined;
    expect(streamed?.statusCode).toBe(429);
    expect(streamed?.message).not.toContain(key);
  });

  it('applies the Gemini schema projection for Google models and rejects what is not an AI SDK model', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      doGenerate: { content: [], finishReason: { unified: 'stop', raw: 'STOP' }, usage: usageV3, warnings: [] },
    });
    const model = fromAiSdk(mock);
    await model.doGenerate({ messages: [{ role: 'user', content: 'x' }], tools: [weather] });
    const schema = JSON.stringify(mock.doGenerateCalls[0]?.tools?.[0]);
    expect(schema).not.toContain('additionalProperties');
    expect(schema).not.toContain('hostname');
    expect(model.provider).toBe('google');
    expect(() => fromAiSdk({ specificationVersion: 'v1' } as never)).toThrow(TypeError);
  });
});

describe('fromAiSdk with hand-written V2 and V4 models', () => {
  it('reads a V2 model: flat usage, string finish reasons, v2 warnings and media tool results', async () => {
    const calls: unknown[] = [];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'mistral.chat',
      modelId: 'mistral-small',
      supportedUrls: {},
      async doGenerate(options) {
        calls.push(options);
        return {
          content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'get_weather', input: '{"city":"Lyon"}' }],
          finishReason: 'tool-calls',
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 2 },
          warnings: [
            { type: 'unsupported-setting', setting: 'seed' },
            { type: 'unsupported-tool', tool: { type: 'function', name: 'x', inputSchema: {} } },
          ],
        };
      },
      async doStream() {
        const parts: LanguageModelV2StreamPart[] = [
          { type: 'stream-start', warnings: [] },
          { type: 'text-delta', id: '0', delta: 'hi' },
          { type: 'finish', finishReason: 'unknown', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
        ];
        return { stream: stream(parts) };
      },
    };
    const model = fromAiSdk(v2);
    const response = await model.doGenerate({
      messages: [
        { role: 'assistant', content: '', toolCalls: [{ id: 't0', name: 'snap', arguments: '' }] },
        {
          role: 'tool',
          toolCallId: 't0',
          content: [{ type: 'image', mediaType: 'image/png', data: { kind: 'base64', value: 'AAA' } }],
        },
      ],
    });
    expect((calls[0] as { prompt: unknown[] }).prompt[1]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 't0',
          toolName: 'snap',
          output: { type: 'content', value: [{ type: 'media', data: 'AAA', mediaType: 'image/png' }] },
        },
      ],
    });
    expect(response.toolCalls).toEqual([
      { id: 't1', name: 'get_weather', arguments: { city: 'Lyon' }, rawArguments: '{"city":"Lyon"}' },
    ]);
    expect([response.finishReason, response.usage]).toEqual([
      'tool_calls',
      { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 2 },
    ]);
    expect(response.warnings).toEqual([
      { type: 'unsupported_setting', setting: 'seed' },
      { type: 'unsupported_tool', toolName: 'x' },
    ]);
    const streamed = await collectStream(await model.doStream({ messages: [{ role: 'user', content: 'x' }] }));
    expect([streamed.content, streamed.finishReason, streamed.rawFinishReason]).toEqual(['hi', 'error', 'unknown']);
  });

  it('reads a V4 model (hand-written to the @ai-sdk/provider@4 types; the real package needs Node 22)', async () => {
    const v4 = {
      specificationVersion: 'v4' as const,
      provider: 'xai.chat',
      modelId: 'grok',
      supportedUrls: {},
      async doGenerate() {
        return {
          content: [
            { type: 'text', text: 'cut' },
            { type: 'custom', kind: 'x' },
          ],
          finishReason: { unified: 'interrupted', raw: 'cancelled' },
          usage: usageV3,
          warnings: [{ type: 'compatibility', feature: 'toolChoice', details: 'emulated' }],
        };
      },
      async doStream() {
        return {
          stream: stream([
            { type: 'stream-start', warnings: [] },
            { type: 'ping' },
            { type: 'text-delta', id: '0', delta: 'v4' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageV3 },
          ]),
        };
      },
    };
    const model = fromAiSdk(v4);
    const response = await model.doGenerate({ messages: [{ role: 'user', content: 'x' }] });
    expect([response.content, response.finishReason, response.rawFinishReason]).toEqual(['cut', 'error', 'cancelled']);
    expect(response.warnings).toEqual([{ type: 'other', message: 'toolChoice is emulated: emulated' }]);
    const streamed = await collectStream(await model.doStream({ messages: [{ role: 'user', content: 'x' }] }));
    expect([streamed.content, streamed.usage.reasoningTokens]).toEqual(['v4', 20]);
  });

  it('accepts the AI SDK model types at compile time', () => {
    const accept = (model: LanguageModelV2 | LanguageModelV3) => fromAiSdk(model);
    expect(typeof accept).toBe('function');
  });
});
