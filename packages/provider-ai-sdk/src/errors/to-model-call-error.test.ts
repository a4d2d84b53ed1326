import { APICallError, InvalidResponseDataError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { toModelCallError } from './to-model-call-error.js';

const apiError = (statusCode: number, body: unknown, headers: Record<string, string> = {}) =>
  new APICallError({
    message: 'failed',
    url: 'http://127.0.0.1/v1/messages',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
    isRetryable: statusCode >= 500,
  });

describe('toModelCallError maps the AI SDK onto the shared taxonomy', () => {
  it('reads the kind from the status and the body, retries by the kind, not by the SDK', () => {
    // llama.cpp server: 400 exceed_context_size_error; a 500 "Context size has been exceeded".
    const overflow = toModelCallError(
      apiError(500, { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } }),
      'llamacpp',
    );
    expect(overflow).toMatchObject({ kind: 'context_overflow', isRetryable: false, statusCode: 500 });
    const overloaded = toModelCallError(
      apiError(
        529,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        { 'retry-after': '4' },
      ),
      'anthropic',
    );
    expect(overloaded).toMatchObject({
      kind: 'overloaded',
      providerKind: 'overloaded_error',
      isRetryable: true,
      retryAfterMs: 4000,
    });
    expect(
      toModelCallError(apiError(401, { error: { message: 'bad key', code: 'invalid_api_key' } }), 'x'),
    ).toMatchObject({
      kind: 'auth',
      isRetryable: false,
    });
  });

  it('an error object streamed as an error part classifies as a native error event', () => {
    expect(toModelCallError({ type: 'overloaded_error', message: 'Overloaded' }, 'anthropic')).toMatchObject({
      kind: 'overloaded',
      isRetryable: true,
    });
    // vLLM: internal_error is a server-side type, retryable.
    expect(toModelCallError({ type: 'internal_error', message: 'engine died' }, 'vllm')).toMatchObject({
      kind: 'server_error',
      isRetryable: true,
    });
  });

  it('an unparsable or invalid response is invalid_chunk, retryable, as in the native adapters', () => {
    const error = toModelCallError(new InvalidResponseDataError({ data: {}, message: 'no finish_reason' }), 'x');
    expect(error).toMatchObject({
      kind: 'invalid_chunk',
      providerKind: 'AI_InvalidResponseDataError',
      isRetryable: true,
    });
    expect(toModelCallError(new Error('odd'), 'x')).toMatchObject({ kind: 'unknown', isRetryable: false });
  });

  it('keeps secrets out of the message and body', () => {
    const error = toModelCallError(apiError(401, { error: { message: 'key sk-secret-0000 rejected' } }), 'x', [
      'sk-secret-0000',
    ]);
    expect(`${error.message}${error.responseBody}`).not.toContain('sk-secret-0000');
  });
});

describe('toModelCallError: error parts a breaker sent (issue 34)', () => {
  it('unwraps an error part that is JSON text, like the native adapters', () => {
    const error = toModelCallError('{"type":"overloaded_error","message":"Overloaded"}', 'anthropic');
    expect(error).toMatchObject({ kind: 'overloaded', providerKind: 'overloaded_error', isRetryable: true });
  });

  it("re-classifies a plain object carrying tiny's error markers instead of trusting it", () => {
    const forged = {
      [Symbol.for('tiny.error')]: true,
      [Symbol.for('tiny.error.ModelCallError')]: true,
      kind: 'banana',
      message: 'forged',
      isRetryable: true,
    };
    const error = toModelCallError(forged, 'openai');
    expect(error).not.toBe(forged);
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).not.toBe('banana');
  });

  it('clamps a huge retry-after to one hour', () => {
    const error = toModelCallError(
      apiError(429, { error: { type: 'rate_limit_error', message: 'slow' } }, { 'retry-after': '99999999999' }),
      'anthropic',
    );
    expect(error).toMatchObject({ kind: 'rate_limit', retryAfterMs: 3_600_000 });
  });
});
