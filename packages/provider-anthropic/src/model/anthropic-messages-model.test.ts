import { collectStream, type LanguageModelV1Response, type Message, recordAssistantTurn } from '@tiny/llm';
import { partsOf, replayParts, useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { AnthropicCallError } from '../errors/anthropic-call-error.js';
import { anthropic } from '../presets/anthropic.js';

const replay = useReplayServer(new URL('../__fixtures__/', import.meta.url));
const secret = 'sk-ant-model-test-0123456789';

/** The assistant turn the harness records for a response (native calls, as the harness settles them). */
function recorded(response: LanguageModelV1Response): Message {
  return recordAssistantTurn(
    { ...response, narrative: response.content } as never,
    { replayText: response.content },
    response.toolCalls.map((call) => ({ ...call, source: 'native' }) as never),
  );
}

async function caught(promise: Promise<unknown>): Promise<AnthropicCallError> {
  try {
    await promise;
  } catch (error) {
    if (AnthropicCallError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('AnthropicMessagesModel', () => {
  it('keeps redacted thinking opaque and replays it with the signed thinking, in order, unchanged', async () => {
    const model = anthropic({ baseURL: replay.load('anthropic/redacted-thinking.json'), apiKey: secret })(
      'claude-sonnet-4-5',
    );
    const user: Message = { role: 'user', content: 'Weather in Oslo?' };
    const first = await model.doGenerate({ messages: [user] });
    expect(first.reasoning).toBe('Let me look this up.');
    expect(first.reasoningSignature).toMatch(/^tiny\.anthropic\.blocks\.v1:/);
    expect(first.reasoningSignature).not.toContain('EmwKAhgB');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_01RedactedCall0000000001', name: 'weather', arguments: { city: 'Oslo' } },
    ]);
    const second = await model.doGenerate({
      messages: [
        user,
        recorded(first),
        { role: 'tool', toolCallId: 'toolu_01RedactedCall0000000001', content: 'service unavailable', isError: true },
      ],
    });
    expect(second.content).toBe('The weather service is down.');
    expect(second.warnings).toEqual([]);
  });

  it('passes server-tool blocks through as provider-executed content and replays them; ignores ping and unknown events', async () => {
    const model = anthropic({ baseURL: replay.load('anthropic/web-search.json'), apiKey: secret })(
      'claude-sonnet-4-5',
      {
        providerOptions: { serverTools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }] },
      },
    );
    const user: Message = { role: 'user', content: 'Tech news today?' };
    const result = await model.doStream({ messages: [user] });
    const parts = await partsOf(result.stream);
    expect(parts.filter((part) => part.type.startsWith('tool_call'))).toEqual([]);
    const response = await collectStream({ ...result, stream: replayParts(parts) });
    expect(response.content).toBe("Here is today's tech news.");
    expect(response.toolCalls).toEqual([]);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({
      inputTokens: 3837,
      outputTokens: 120,
      totalTokens: 3957,
      cachedInputTokens: 1800,
    });
    const next = await model.doGenerate({ messages: [user, recorded(response), { role: 'user', content: 'Thanks.' }] });
    expect(next.content).toBe("You're welcome.");
  });

  it('never lets a tool call cut off by max_tokens run, streamed or whole; maps 529, 413, rate-limit resets and refusals', async () => {
    const model = anthropic({ baseURL: replay.load('anthropic/edge-cases.json'), apiKey: secret })('claude-sonnet-4-5');
    const request = {
      messages: [{ role: 'user', content: 'Write a letter to notes.txt' }] as Message[],
      maxTokens: 16,
    };
    const streamed = await collectStream(await model.doStream(request));
    expect(streamed.finishReason).toBe('length');
    expect(streamed.rawFinishReason).toBe('max_tokens');
    expect(streamed.toolCalls[0]?.invalid).toMatch(/max_tokens/);
    expect(streamed.toolCalls[0]?.arguments).toBe('{"path": "notes.txt", "content": "Dear');
    const whole = await model.doGenerate(request);
    expect(whole.toolCalls[0]?.invalid).toMatch(/max_tokens/);
    expect(whole.toolCalls[0]?.arguments).toBe('{"path":"notes.txt"}');

    const overloaded = await caught(model.doGenerate(request));
    expect([overloaded.kind, overloaded.statusCode, overloaded.isRetryable, overloaded.requestId]).toEqual([
      'overloaded',
      529,
      true,
      'req_011CSHoverloaded',
    ]);
    const tooLarge = await caught(model.doGenerate(request));
    expect([tooLarge.kind, tooLarge.providerKind, tooLarge.isRetryable]).toEqual([
      'invalid_request',
      'request_too_large',
      false,
    ]);
    const limited = await caught(model.doGenerate(request));
    expect(limited.kind).toBe('rate_limit');
    expect(limited.isRetryable).toBe(true);
    // The exhausted limit resets in 2030: the wait is read from it, then clamped to one hour.
    expect(limited.retryAfterMs).toBe(60 * 60 * 1000);
    expect(limited.rateLimits['anthropic-ratelimit-input-tokens-remaining']).toBe('0');

    const refusal = await model.doGenerate(request);
    expect([refusal.finishReason, refusal.rawFinishReason, refusal.content]).toEqual(['content_filter', 'refusal', '']);
    expect(refusal.refusal).toBe(
      'The model declined the request (stop_reason "refusal", category "cyber") without an explanation.',
    );
  });
});
