import { describe, expect, it } from 'vitest';
import { readErrorAnswer } from './read-error-answer.js';

const requestId = (headers: Headers) => headers.get('x-request-id') ?? undefined;

describe('readErrorAnswer', () => {
  it('reads status, envelope, shared kind, retry wait and request id, scrubbed of the key', async () => {
    const response = new Response(
      JSON.stringify({ error: { message: 'Slow down sk-key-0000', type: 'requests', code: 'rate_limit_exceeded' } }),
      { status: 429, statusText: 'Too Many Requests', headers: { 'retry-after': '3', 'x-request-id': 'req_9' } },
    );
    const answer = await readErrorAnswer(response, { provider: 'p', secret: 'sk-key-0000', requestId });
    expect(answer).toMatchObject({
      kind: 'rate_limit',
      providerKind: 'requests',
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 3000,
      providerMessage: 'Slow down [redacted]',
      requestId: 'req_9',
    });
    expect(answer.message).toBe('p answered 429 Too Many Requests: Slow down [redacted] (request req_9)');
    expect(answer.responseBody).not.toContain('sk-key-0000');
  });
  it('uses the head of a body that is not JSON as the message, and the body request_id when no header', async () => {
    const html = await readErrorAnswer(new Response('<html>Bad Gateway</html>', { status: 502 }), {
      provider: 'p',
      requestId,
    });
    expect(html).toMatchObject({
      kind: 'server_error',
      providerMessage: '<html>Bad Gateway</html>',
      isRetryable: true,
    });
    const anthropic = await readErrorAnswer(
      new Response(
        JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no model' }, request_id: 'req_b' }),
        {
          status: 404,
        },
      ),
      { provider: 'p', requestId },
    );
    expect(anthropic).toMatchObject({ kind: 'not_found', requestId: 'req_b' });
  });
});
