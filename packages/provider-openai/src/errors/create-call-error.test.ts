import { ModelCallError } from '@tiny/llm';
import { classifyProviderError } from '@tiny/provider-utils';
import { describe, expect, it } from 'vitest';
import { implicatedField, rejectsTools } from './classify-rejection.js';
import { errorFromBody, errorFromResponse, transportError } from './create-call-error.js';
import { OpenAICompatibleCallError } from './openai-compatible-call-error.js';

const context = { provider: 'test', secret: 'sk-secret-value' };
const respond = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers });

describe('errorFromResponse (P6)', () => {
  it('carries status, provider message, type, code, param, request id and retry-after', async () => {
    const error = await errorFromResponse(
      respond(
        429,
        { error: { message: 'Slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
        {
          'x-request-id': 'req_1',
          'retry-after': '3',
        },
      ),
      context,
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(OpenAICompatibleCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'OpenAICompatibleCallError',
      statusCode: 429,
      isRetryable: true,
      providerMessage: 'Slow down',
      errorType: 'requests',
      errorCode: 'rate_limit_exceeded',
      requestId: 'req_1',
      retryAfterMs: 3000,
      provider: 'test',
    });
    expect(error.message).toBe('test answered 429: Slow down (request req_1)');
  });

  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
  ])('maps %i to isRetryable %s', async (status, retryable) => {
    expect((await errorFromResponse(respond(status, ''), context)).isRetryable).toBe(retryable);
  });

  it('reads every server error shape', async () => {
    const message = async (body: unknown) => (await errorFromResponse(respond(400, body), context)).providerMessage;
    expect(await message({ error: "'response_format.type' must be 'json_schema' or 'text'" })).toBe(
      "'response_format.type' must be 'json_schema' or 'text'",
    );
    expect(await message({ object: 'error', message: 'bad', type: 'BadRequestError', code: 400 })).toBe('bad');
    expect(
      await message({
        error: { code: 400, message: 'tools param requires --jinja flag', type: 'invalid_request_error' },
      }),
    ).toBe('tools param requires --jinja flag');
    expect(await message({ detail: 'Not Found' })).toBe('Not Found');
    expect(await message('<html>Bad Gateway</html>')).toBe('<html>Bad Gateway</html>');
  });

  it('never lets the API key into the message or the body', async () => {
    const error = await errorFromResponse(
      respond(401, { error: { message: 'Incorrect API key provided: sk-secret-value.' } }),
      context,
    );
    expect(`${error.message}${error.responseBody}${error.providerMessage}`).not.toContain('sk-secret-value');
    expect(error.message).toContain('Incorrect API key provided: [redacted].');
  });
});

describe('errorFromBody and transportError', () => {
  it('reports the status an in-body error carries as statusCode, the payload code as errorCode; retries by the kind', () => {
    expect(errorFromBody({ error: { message: 'x', code: 503 } }, '', { ...context, where: 'stream' })).toMatchObject({
      statusCode: 503,
      errorCode: '503',
      kind: 'server_error',
      isRetryable: true,
    });
    expect(
      errorFromBody({ error: { message: 'x', type: 'server_error' } }, '', { ...context, where: 'stream' }).isRetryable,
    ).toBe(true);
    expect(
      errorFromBody({ error: { message: 'x', type: 'invalid_request_error' } }, '', { ...context, where: 'stream' })
        .isRetryable,
    ).toBe(false);
  });

  it('marks transport failures retryable and keeps the cause', () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    const error = transportError('request failed', cause, context);
    expect(error).toMatchObject({ isRetryable: true, cause, statusCode: undefined });
    expect(error.message).toBe('test request failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
  });
});

describe('rejection classifiers', () => {
  const error = (statusCode: number, providerMessage: string) =>
    new OpenAICompatibleCallError({
      message: 'x',
      statusCode,
      providerMessage,
      kind: classifyProviderError({ statusCode, message: providerMessage }).kind,
    });

  it.each([
    [400, 'registry.ollama.ai/library/gemma:2b does not support tools'],
    [400, 'tools param requires --jinja flag'],
    [500, 'tools param requires --jinja flag'],
    [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
    [404, 'No endpoints found that support tool use. Try disabling "get_weather".'],
    [400, 'Tool calling is not supported for this model'],
  ])('reads %i %j as tools unsupported', (status, message) => {
    expect(rejectsTools(error(status, message))).toBe(true);
  });

  it.each([
    [400, 'the request exceeds the available context size'],
    [400, "Invalid value for 'temperature'"],
    [429, 'does not support tools'],
    [503, 'tools param requires --jinja flag'],
  ])('does not read %i %j as tools unsupported', (status, message) => {
    expect(rejectsTools(error(status, message))).toBe(false);
  });

  it('names the degradable field a 400 blames, among those sent', () => {
    const sent = new Set(['tool_choice', 'response_format'] as const);
    expect(
      implicatedField(
        error(400, "Invalid tool_choice type: 'object'. Supported string values: none, auto, required"),
        sent,
      ),
    ).toBe('tool_choice');
    expect(implicatedField(error(400, "'response_format.type' must be 'json_schema' or 'text'"), sent)).toBe(
      'response_format',
    );
    expect(implicatedField(error(400, 'Unrecognized request argument supplied: stream_options'), sent)).toBeUndefined();
    expect(implicatedField(error(500, 'tool_choice broke'), sent)).toBeUndefined();
  });
});
