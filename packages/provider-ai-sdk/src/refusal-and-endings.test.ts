import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { collectStream, collectStreamSettled, type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { conformanceRequests, type ReplayServer, startReplayServer } from '@tiny/provider-tests';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';
import { loadNativeFixture } from './replay.test-helper.js';

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

async function* replay(parts: readonly LanguageModelV1StreamPart[]): AsyncGenerator<LanguageModelV1StreamPart> {
  yield* parts;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};
const request = { messages: [{ role: 'user' as const, content: 'go' }] };

describe('fromAiSdk endings and refusals (scripted V3 parts)', () => {
  it('ends a stream without a finish part with a retryable error, after the text streamed so far', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'po' },
    ];
    const mock = new MockLanguageModelV3({ provider: 'x.chat', doStream: { stream: stream(parts) } });
    const out = await all((await fromAiSdk(mock).doStream(request)).stream);
    expect(out.some((part) => part.type === 'finish')).toBe(false);
    const last = out[out.length - 1];
    const error = last?.type === 'error' ? last.error : undefined;
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).isRetryable).toBe(true);
    expect((error as ModelCallError).message).toMatch(/without a finish part/);
    const settled = await collectStreamSettled(replay(out));
    expect([settled.error, settled.response.content]).toEqual([error, 'po']);
  });

  it('reads a refusal from stopDetails metadata, generated and streamed; a provider content filter is no refusal', async () => {
    const explained = { anthropic: { stopDetails: { type: 'refusal', category: 'cyber', explanation: 'Declined.' } } };
    const bare = { anthropic: { stopDetails: { type: 'refusal', category: 'bio' } } };
    const refused = { unified: 'content-filter', raw: 'refusal' } as const;
    for (const [metadata, expected] of [
      [explained, 'Declined.'],
      [bare, 'The model declined the request (stop_reason "refusal", category "bio") without an explanation.'],
    ] as const) {
      const mock = new MockLanguageModelV3({
        provider: 'anthropic.messages',
        doGenerate: { content: [], finishReason: refused, usage, warnings: [], providerMetadata: metadata },
        doStream: {
          stream: stream<LanguageModelV3StreamPart>([
            { type: 'stream-start', warnings: [] },
            { type: 'finish', finishReason: refused, usage, providerMetadata: metadata },
          ]),
        },
      });
      const model = fromAiSdk(mock);
      const generated = await model.doGenerate(request);
      const parts = await all((await model.doStream(request)).stream);
      expect(parts.filter((part) => part.type === 'refusal_delta')).toEqual([
        { type: 'refusal_delta', delta: expected },
      ]);
      for (const response of [generated, await collectStream(replay(parts))]) {
        expect([response.refusal, response.content, response.finishReason]).toEqual([expected, '', 'content_filter']);
      }
    }

    const filtered = { unified: 'content-filter', raw: 'content_filter' } as const;
    const mock = new MockLanguageModelV3({
      provider: 'azure.chat',
      doGenerate: { content: [{ type: 'text', text: 'Once upon' }], finishReason: filtered, usage, warnings: [] },
    });
    const response = await fromAiSdk(mock).doGenerate(request);
    expect([response.refusal, response.content, response.finishReason]).toEqual([
      undefined,
      'Once upon',
      'content_filter',
    ]);
  });
});

describe('fromAiSdk endings and refusals over real AI SDK providers and recorded traffic', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.assertDone();
  });

  it('@ai-sdk/openai-compatible: message.refusal and delta.refusal become refusal (the SDK keeps them as text too)', async () => {
    const secret = 'sk-conformance-0123456789';
    server.load(
      loadNativeFixture('provider-openai', 'conformance/refusal.json', ['model', 'stream'], ['authorization']),
    );
    const provider = createOpenAICompatible({
      name: 'openai',
      baseURL: `${server.url}/v1`,
      apiKey: secret,
      includeUsage: true,
    });
    const model = fromAiSdk(provider('gpt-4o-mini'));
    const refusal = "I'm sorry, I can't assist with that request.";
    const generated = await model.doGenerate(conformanceRequests.structured_output);
    const parts = await all((await model.doStream(conformanceRequests.structured_output)).stream);
    expect(parts.filter((part) => part.type === 'refusal_delta')).toHaveLength(1);
    for (const response of [generated, await collectStream(replay(parts))]) {
      expect([response.refusal, response.content, response.finishReason]).toEqual([refusal, refusal, 'content_filter']);
    }
  });

  it('@ai-sdk/anthropic: an early end is a retryable incomplete stream, the text kept; stop_details is the refusal', async () => {
    const secret = 'sk-ant-conformance-0123456789';
    const provider = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: secret });
    server.load(
      loadNativeFixture('provider-anthropic', 'conformance/stream_endings.json', ['model', 'stream'], ['x-api-key']),
    );
    const model = fromAiSdk(provider('claude-sonnet-4-5'));
    const cut = await all((await model.doStream(conformanceRequests.text)).stream);
    const last = cut[cut.length - 1];
    expect(last?.type === 'error' && ModelCallError.isInstance(last.error) && last.error.isRetryable).toBe(true);
    expect((await collectStreamSettled(replay(cut))).response.content).toBe('po');
    for (let rest = 0; rest < 2; rest++) await all((await model.doStream(conformanceRequests.text)).stream);

    server.load(
      loadNativeFixture('provider-anthropic', 'conformance/refusal.json', ['model', 'stream'], ['x-api-key']),
    );
    const generated = await model.doGenerate(conformanceRequests.structured_output);
    const streamed = await collectStream(
      replay(await all((await model.doStream(conformanceRequests.structured_output)).stream)),
    );
    for (const response of [generated, streamed]) {
      expect([response.refusal, response.content, response.finishReason]).toEqual([
        'This request was declined because it could enable cyber harm.',
        '',
        'content_filter',
      ]);
    }
  });
});
