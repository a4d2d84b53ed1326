import { describe, expect, it } from 'vitest';
import { httpFailureOptions, transportFailureOptions } from './failure-options.js';
import { HttpFailure } from './http-failure.js';

const context = { provider: 'p', secret: 'sk-secret-1', requestId: 'req_1' };

describe('transportFailureOptions', () => {
  it.each([
    ['transport', 'network', true],
    ['incomplete_stream', 'incomplete_stream', true],
    ['invalid_chunk_json', 'invalid_chunk', true],
    ['protocol_violation', 'protocol_violation', false],
  ] as const)('%s is kind %s, retryable %s', (word, kind, retryable) => {
    const options = transportFailureOptions('failed', new Error('boom sk-secret-1'), word, context);
    expect(options).toMatchObject({ kind, providerKind: word, isRetryable: retryable, requestId: 'req_1' });
    expect(options.message).toBe('p failed: boom [redacted] (request req_1)');
  });
});

describe('httpFailureOptions', () => {
  it("keeps the secret out of the cause: a redirect's Location echoing the key is scrubbed in message, location and stack", () => {
    const key = 'AIzaSy-redirect-secret-42';
    const failure = new HttpFailure({
      kind: 'redirect',
      message: `answered 302 to http://evil.example/?k=${key}, another origin`,
      retryable: false,
      statusCode: 302,
      location: `http://evil.example/?k=${key}`,
    });
    const options = httpFailureOptions(failure, { provider: 'p', secret: key });
    const cause = options.cause as HttpFailure;
    expect(HttpFailure.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ kind: 'redirect', statusCode: 302, location: 'http://evil.example/?k=[redacted]' });
    for (const text of [options.message, cause.message, cause.location, cause.stack]) expect(text).not.toContain(key);
  });

  it('maps the plumbing refusals onto shared kinds, keeping the status', () => {
    const redirect = new HttpFailure({ kind: 'redirect', message: 'redirected', retryable: false, statusCode: 302 });
    expect(httpFailureOptions(redirect, context)).toMatchObject({
      kind: 'redirect',
      statusCode: 302,
      isRetryable: false,
    });
    const slow = new HttpFailure({ kind: 'response_timeout', message: 'stalled', retryable: true });
    expect(httpFailureOptions(slow, { ...context, statusCode: 200 })).toMatchObject({
      kind: 'timeout',
      providerKind: 'response_timeout',
      statusCode: 200,
      isRetryable: true,
    });
  });
});
