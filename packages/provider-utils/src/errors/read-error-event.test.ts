import { describe, expect, it } from 'vitest';
import { readErrorEvent } from './read-error-event.js';

const context = { provider: 'p', secret: 'sk-key-0000', where: 'reported an error mid-stream' };

describe('readErrorEvent', () => {
  it.each([
    ['insufficient_quota', 'quota_exceeded', false],
    ['context_length_exceeded', 'context_overflow', false],
    ['rate_limit_exceeded', 'rate_limit', true],
    ['invalid_api_key', 'auth', false],
    ['invalid_prompt', 'invalid_request', false],
    ['server_error', 'server_error', true],
  ] as const)('classifies the top-level code %s of an OpenAI Responses error event as %s', (code, kind, retry) => {
    // `{type:'error', code, message, param, sequence_number}`: OpenAI API reference, Responses streaming `error`.
    const event = readErrorEvent({ type: 'error', code, message: 'm', param: null, sequence_number: 1 }, '{}', {
      ...context,
      httpStatus: 200,
    });
    expect(event).toMatchObject({ kind, isRetryable: retry, providerKind: code });
    expect(event.envelope?.code).toBe(code);
  });
  it("reads llama.cpp's bare error object with the status it carries", () => {
    const event = readErrorEvent({ code: 503, message: 'Loading model', type: 'unavailable_error' }, '{}', {
      ...context,
      httpStatus: 200,
    });
    expect(event).toMatchObject({
      kind: 'server_error',
      statusCode: 503,
      isRetryable: true,
      providerMessage: 'Loading model',
    });
    expect(event.message).toBe('p reported an error mid-stream (unavailable_error): Loading model');
  });
  it('an unknown error in a started body is a retryable server error; the HTTP status stands when the error has none', () => {
    expect(readErrorEvent({ error: { message: 'x' } }, '', { ...context, httpStatus: 200 })).toMatchObject({
      kind: 'server_error',
      statusCode: 200,
      isRetryable: true,
    });
  });
  it('uses the raw text of an event that is not JSON, scrubbed', () => {
    const event = readErrorEvent(undefined, 'upstream died sk-key-0000', context);
    expect(event.providerMessage).toBe('upstream died [redacted]');
    expect(event.responseBody).not.toContain('sk-key-0000');
  });
});
