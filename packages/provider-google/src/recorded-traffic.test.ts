// Replays the AI SDK's recorded Gemini traffic byte for byte (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911,
// packages/google/src/__fixtures__/*.json and *.chunks.txt; each chunks line written as one SSE `data:` event
// with the API's CRLF framing) from 127.0.0.1.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { collectStream, type LanguageModelV1Request, ModelCallError } from '@tiny/llm';
import {
  partsOf,
  type ReplayResponse,
  type ReplayServer,
  replayParts,
  startReplayServer,
  streamOrderViolations,
} from '@tiny/provider-tests';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';
import { GoogleCallError } from './errors/google-call-error.js';
import { decodeReplayParts } from './request/replay-parts.js';

const dir = fileURLToPath(new URL('./__fixtures__/google/', import.meta.url));
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

function serve(...responses: ReplayResponse[]) {
  server.load({ exchanges: responses.map((response) => ({ response })) }, dir);
  return createGoogle({ baseURL: `${server.url}/v1beta`, apiKey: 'AIza-recorded-key' })('gemini-3-pro-preview');
}

const ask: LanguageModelV1Request = { messages: [{ role: 'user', content: 'How many rs in strawberry?' }] };

async function streamed(file: string) {
  const model = serve({ file });
  const parts = await partsOf((await model.doStream(ask)).stream);
  expect(streamOrderViolations(parts)).toEqual([]);
  return { parts, response: await collectStream({ stream: replayParts(parts), warnings: [] }) };
}

describe('recorded text answers', () => {
  it('keeps the signature of a whole answer on its text part, for an exact replay', async () => {
    const response = await serve({ file: 'google-text.json' }).doGenerate(ask);
    expect(response.content).toBe("There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.");
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({
      inputTokens: 9,
      outputTokens: 28 + 244,
      reasoningTokens: 244,
      totalTokens: 281,
    });
    expect(decodeReplayParts(response.reasoningSignature ?? '')).toEqual([
      {
        text: response.content,
        thoughtSignature:
          'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5t9aUZ4IZ65aWagqbBrV45fc97olcg',
      },
    ]);
  });

  it('streams the text and keeps the closing empty part with its signature apart from the joined text', async () => {
    const { response } = await streamed('google-text.sse');
    expect(response.content).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    const parts = decodeReplayParts(response.reasoningSignature ?? '');
    expect(parts?.map((part) => Object.keys(part))).toEqual([['text'], ['text', 'thoughtSignature']]);
    expect(parts?.[0]?.text).toBe(response.content);
    expect(parts?.[1]?.text).toBe('');
    expect(response.finishReason).toBe('stop');
  });

  it('reads thought parts as reasoning, never as the answer', async () => {
    const { parts, response } = await streamed('google-stream-no-args-tool-call.sse');
    expect(response.reasoning).toContain('**Processing User Requests**');
    expect(response.content).not.toContain('Processing User Requests');
    expect(parts.some((part) => part.type === 'reasoning_delta' && part.delta.includes('read_theme') === false)).toBe(
      true,
    );
  });
});

describe('recorded function calls', () => {
  it('a whole call carries its thought signature in extraContent (generate and stream)', async () => {
    const generated = await serve({ file: 'google-tool-call-gemini3.json' }).doGenerate(ask);
    expect(generated.toolCalls).toEqual([
      expect.objectContaining({ name: 'weather', arguments: { location: 'San Francisco' } }),
    ]);
    expect(generated.toolCalls[0]?.invalid).toBeUndefined();
    expect(generated.toolCalls[0]?.extraContent).toEqual({
      google: { thoughtSignature: expect.stringMatching(/^Eqo\+Cqc\+Ab4/) },
    });
    expect(generated.finishReason).toBe('tool_calls');
    const { response } = await streamed('google-tool-call-gemini3.sse');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]).toMatchObject({ name: 'weather', arguments: { location: 'San Francisco' } });
    expect(response.finishReason).toBe('tool_calls');
  });

  it('assembles two calls whose arguments stream as partialArgs, each closed by an empty functionCall', async () => {
    const { parts, response } = await streamed('google-stream-tool-call-arguments.sse');
    expect(response.toolCalls.map((call) => [call.name, call.arguments, call.invalid])).toEqual([
      ['getWeather', { location: 'Boston' }, undefined],
      ['getWeather', { location: 'San Francisco' }, undefined],
    ]);
    expect(new Set(response.toolCalls.map((call) => call.id)).size).toBe(2);
    // no call completes before the turn's finishReason
    const firstEnd = parts.findIndex((part) => part.type === 'tool_call_end');
    const lastStart = parts.map((part) => part.type).lastIndexOf('tool_call_start');
    expect(firstEnd).toBeGreaterThan(lastStart);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('closes a streamed call at a partialArgs part without willContinue (no terminal empty functionCall)', async () => {
    const { response } = await streamed('google-stream-tool-call-array-arguments-missing-terminal-function-call.sse');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.invalid).toBeUndefined();
    expect(response.toolCalls[0]?.arguments).toEqual({
      operations: [
        { action: 'add', description: 'Fresh red apple', itemid: 'apple_001', price: 0.5 },
        { action: 'add', description: 'Ripe yellow banana', itemid: 'banana_001', price: 0.3 },
      ],
    });
  });

  it('assembles nested paths and keeps a call with no args, next to one with streamed arguments', async () => {
    const { response } = await streamed('google-vertex-stream-tool-call-arguments-nested.1.sse');
    const [call] = response.toolCalls;
    const recipe = (
      call?.arguments as { recipe: { name: string; ingredients: unknown[]; steps: string[] } } | undefined
    )?.recipe;
    expect(call?.invalid).toBeUndefined();
    expect(recipe?.name).toBe('Lasagna');
    expect(recipe?.ingredients).toHaveLength(10);
    expect(recipe?.ingredients[0]).toEqual({ amount: '16 oz', name: 'Lasagna noodles' });
    expect(recipe?.steps[1]).toBe('Cook lasagna noodles according to package directions, drain and set aside.');
    expect(recipe?.steps[4]).toBe('In a 9x13 baking dish, spread a thin layer of meat sauce.');
    const noArgs = await streamed('google-stream-no-args-tool-call.sse');
    expect(noArgs.response.toolCalls[0]).toMatchObject({ name: 'read_theme', arguments: {} });
    expect(noArgs.response.toolCalls.every((entry) => entry.invalid === undefined)).toBe(true);
  });
});

describe('recorded errors', () => {
  it('a 429 RESOURCE_EXHAUSTED waits for the RetryInfo retryDelay and keeps the details', async () => {
    const model = serve({
      status: 429,
      file: 'google-429-retry-info.json',
      headers: { 'content-type': 'application/json' },
    });
    const error = await model.doGenerate(ask).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(GoogleCallError.isInstance(error)).toBe(true);
    // a per-minute quota (QuotaFailure ...PerMinute...) with a RetryInfo: a rate limit to wait out, not a spent budget
    expect(error).toMatchObject({
      kind: 'rate_limit',
      status: 'RESOURCE_EXHAUSTED',
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 34_400,
    });
    const typed = error as GoogleCallError;
    expect(typed.details).toHaveLength(2);
    expect(typed.message).toContain('You exceeded your current quota');
  });
});

describe('recorded streams split anywhere', () => {
  const files = [
    'google-text.sse',
    'google-reasoning-gemini3.sse',
    'google-tool-call-gemini3.sse',
    'google-stream-no-args-tool-call.sse',
    'google-stream-tool-call-arguments.sse',
    'google-vertex-stream-tool-call-arguments-nested.1.sse',
  ];

  it.each(files)('%s reads the same turn whether it arrives per event or in 3, 17 or 251 byte writes', async (file) => {
    const turn = async (response: ReplayResponse) => {
      const {
        request: _request,
        response: _response,
        ...read
      } = await collectStream(await serve(response).doStream(ask));
      return read;
    };
    const whole = await turn({ file });
    expect(whole.finishReason).not.toBe('error');
    for (const bytes of [3, 17, 251]) expect(await turn({ file, chunking: { bytes } })).toEqual(whole);
  });
});

describe('a streamed call whose arguments cannot be placed', () => {
  it('ends invalid and breaks the turn even though it finished with STOP', async () => {
    const chunk = (part: unknown, finish?: string) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [part] }, ...(finish === undefined ? {} : { finishReason: finish }) }], responseId: 'r1' })}\r\n\r\n`;
    const text = [
      chunk({ functionCall: { name: 'write', willContinue: true } }),
      chunk({
        functionCall: { partialArgs: [{ jsonPath: '$.__proto__.admin', boolValue: true }], willContinue: true },
      }),
      chunk({ functionCall: {} }, 'STOP'),
    ].join('');
    const response = await collectStream(
      await serve({ text, headers: { 'content-type': 'text/event-stream' } }).doStream(ask),
    );
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.invalid).toMatch(/reserved key/);
    expect(response.finishReason).toBe('error');
  });
});

describe('every signature in the recordings is kept for replay', () => {
  const signatures = (text: string) => [...text.matchAll(/"thoughtSignature":\s*"([^"]+)"/g)].map((match) => match[1]);
  const kept = (response: {
    reasoningSignature?: string | undefined;
    toolCalls: readonly { extraContent?: unknown }[];
  }) => [
    ...(decodeReplayParts(response.reasoningSignature ?? '') ?? []).map((part) => part.thoughtSignature),
    ...response.toolCalls.map(
      (call) => (call.extraContent as { google?: { thoughtSignature?: string } } | undefined)?.google?.thoughtSignature,
    ),
  ];

  it.each([
    'google-text.json',
    'google-reasoning.json',
    'google-reasoning-gemini3.json',
    'google-tool-call.json',
    'google-tool-call-gemini3.json',
  ])('%s (whole)', async (file) => {
    const recordedSignatures = signatures(
      readFileSync(new URL(`./__fixtures__/google/${file}`, import.meta.url), 'utf8'),
    );
    expect(recordedSignatures.length).toBeGreaterThan(0);
    const response = await serve({ file }).doGenerate(ask);
    expect(
      kept(response)
        .filter((value) => value !== undefined)
        .sort(),
    ).toEqual([...recordedSignatures].sort());
  });

  it.each([
    'google-text.sse',
    'google-reasoning.sse',
    'google-reasoning-gemini3.sse',
    'google-tool-call.sse',
    'google-tool-call-gemini3.sse',
    'google-stream-no-args-tool-call.sse',
    'google-stream-tool-call-arguments.sse',
  ])('%s (streamed)', async (file) => {
    const recordedSignatures = signatures(
      readFileSync(new URL(`./__fixtures__/google/${file}`, import.meta.url), 'utf8'),
    );
    expect(recordedSignatures.length).toBeGreaterThan(0);
    const { response } = await streamed(file);
    expect(
      kept(response)
        .filter((value) => value !== undefined)
        .sort(),
    ).toEqual([...recordedSignatures].sort());
  });
});
