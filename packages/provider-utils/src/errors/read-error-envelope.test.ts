import { describe, expect, it } from 'vitest';
import { readErrorEnvelope } from './read-error-envelope.js';

describe('readErrorEnvelope', () => {
  it("keeps the code and param of OpenAI Responses' documented stream error event (no inner error object)", () => {
    // Shape from the OpenAI API reference, Responses streaming events, `error`.
    const event = { type: 'error', code: 'insufficient_quota', message: 'quota', param: null, sequence_number: 3 };
    expect(readErrorEnvelope(event)).toEqual({ message: 'quota', code: 'insufficient_quota' });
    expect(readErrorEnvelope({ ...event, code: 'context_length_exceeded', param: 'input' })).toMatchObject({
      code: 'context_length_exceeded',
      param: 'input',
    });
  });
  it('reads the Anthropic envelope with its request id (Anthropic docs, Errors: error shapes)', () => {
    expect(
      readErrorEnvelope({
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
        request_id: 'req_011',
      }),
    ).toMatchObject({ type: 'overloaded_error', message: 'Overloaded', requestId: 'req_011' });
  });

  it('reads OpenAI, LM Studio, older vLLM, FastAPI and Gemini shapes', () => {
    expect(
      readErrorEnvelope({
        error: { message: 'Slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' },
      }),
    ).toMatchObject({ message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded' });
    expect(readErrorEnvelope({ error: "'response_format.type' must be 'json_schema' or 'text'" })).toEqual({
      message: "'response_format.type' must be 'json_schema' or 'text'",
    });
    expect(readErrorEnvelope({ object: 'error', message: 'bad', type: 'BadRequestError', code: 400 })).toMatchObject({
      message: 'bad',
      status: 400,
    });
    expect(readErrorEnvelope({ detail: 'Not Found' })).toEqual({ message: 'Not Found' });
    expect(readErrorEnvelope([{ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }])).toMatchObject(
      {
        type: 'RESOURCE_EXHAUSTED',
        status: 429,
      },
    );
    expect(readErrorEnvelope('not an object')).toBeUndefined();
    expect(readErrorEnvelope({ id: 'x' })).toBeUndefined();
  });

  it("reads llama.cpp's bare {code, message, type} error object and its context-size error", () => {
    // llama.cpp server (tools/server, format_error_response): error objects carry code, message, type;
    // exceed_context_size_error adds n_prompt_tokens and n_ctx.
    expect(readErrorEnvelope({ code: 500, message: 'Context size has been exceeded.', type: 'server_error' })).toEqual({
      message: 'Context size has been exceeded.',
      type: 'server_error',
      code: '500',
      param: undefined,
      status: 500,
    });
    expect(
      readErrorEnvelope({
        error: {
          code: 400,
          message: 'request (4476 tokens) exceeds the available context size (4096 tokens)',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 4476,
          n_ctx: 4096,
        },
      }),
    ).toMatchObject({ type: 'exceed_context_size_error', status: 400 });
  });

  it('surfaces the upstream error a relay wraps, as an object or JSON text', () => {
    expect(
      readErrorEnvelope({
        error: {
          type: 'upstream_error',
          message: 'upstream failed',
          upstream_error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
      }),
    ).toMatchObject({ type: 'overloaded_error', message: 'Overloaded' });
    expect(
      readErrorEnvelope({
        error: {
          code: 400,
          message: JSON.stringify({
            type: 'error',
            error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
          }),
          status: 'INVALID_ARGUMENT',
        },
      }),
    ).toMatchObject({
      type: 'invalid_request_error',
      message: 'prompt is too long: 210000 tokens > 200000 maximum',
      status: 400,
    });
    // OpenRouter docs (API reference, Errors): error.metadata.raw holds the upstream provider's error.
    expect(
      readErrorEnvelope({
        error: {
          code: 502,
          message: 'Provider returned error',
          metadata: { provider_name: 'x', raw: '{"error":{"message":"model overloaded","type":"server_error"}}' },
        },
      }),
    ).toMatchObject({ type: 'server_error', message: 'model overloaded', status: 502 });
  });

  it('unwraps up to eight levels of JSON text, and no deeper', () => {
    const wrap = (levels: number) => {
      let body: unknown = { error: { type: 'rate_limit_error', message: 'inner: slow down' } };
      for (let level = 0; level < levels; level += 1)
        body = { error: { message: JSON.stringify(body), code: 502, type: 'upstream_error' } };
      return body;
    };
    expect(readErrorEnvelope(wrap(5))).toMatchObject({
      type: 'rate_limit_error',
      message: 'inner: slow down',
      status: 502,
    });
    expect(readErrorEnvelope(wrap(7))?.type).toBe('rate_limit_error');
    expect(readErrorEnvelope(wrap(12))?.type).toBe('upstream_error');
  });

  it('reads a body that is a JSON string, and LiteLLM\'s "<Name>Error: ... - {json}" message', () => {
    // A relay that serialised the error twice.
    expect(
      readErrorEnvelope(JSON.stringify({ error: { type: 'invalid_request_error', message: 'bad param' } })),
    ).toMatchObject({ type: 'invalid_request_error', message: 'bad param' });
    // LiteLLM's exception mapping (litellm/litellm_core_utils/exception_mapping_utils.py) puts the
    // provider's body after "<Provider>Exception - ".
    const inner = {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    };
    expect(
      readErrorEnvelope({
        error: {
          message: `litellm.RateLimitError: AnthropicException - ${JSON.stringify(inner)}`,
          type: null,
          code: '500',
        },
      }),
    ).toMatchObject({ type: 'rate_limit_error', message: inner.error.message, code: '500' });
  });
});
