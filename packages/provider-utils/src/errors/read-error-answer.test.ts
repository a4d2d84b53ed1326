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

describe('readErrorAnswer: every field scrubbed, each before it is cut', () => {
  const KEY = 'sk-live-answer-0123456789abcdef';

  it('scrubs the envelope fields, the request id of a header and the provider kind', async () => {
    const response = new Response(
      JSON.stringify({ error: { message: 'x', code: KEY, param: KEY, type: `t_${KEY}` } }),
      {
        status: 400,
        headers: { 'x-request-id': KEY },
      },
    );
    const answer = await readErrorAnswer(response, { provider: 'p', secret: KEY, requestId });
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(answer.envelope).toMatchObject({ code: '[redacted]', param: '[redacted]', type: 't_[redacted]' });
    expect(answer.requestId).toBe('[redacted]');
  });

  it('leaves no head of a secret that the 500-character message cut or the 8,192-character body cut goes through', async () => {
    const plain = await readErrorAnswer(new Response(`${'x'.repeat(470)}${KEY}`, { status: 500 }), {
      provider: 'p',
      secret: KEY,
      requestId,
    });
    expect(plain.providerMessage).not.toContain('sk-live');
    const body = JSON.stringify({ error: { message: 'bad' }, pad: 'y'.repeat(8192 - 40), k: KEY });
    const json = await readErrorAnswer(new Response(body, { status: 400 }), { provider: 'p', secret: KEY, requestId });
    expect(json.responseBody).not.toContain('sk-live');
  });

  it('scrubs the secret echoed in another case', async () => {
    const answer = await readErrorAnswer(new Response(`bad key ${KEY.toUpperCase()}`, { status: 401 }), {
      provider: 'p',
      secret: KEY,
      requestId,
    });
    expect(answer.message.toLowerCase()).not.toContain(KEY);
  });
});
