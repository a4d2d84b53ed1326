import { describe, expect, it } from 'vitest';
import { classifyProviderError, deriveRetry } from './classify-provider-error.js';

describe('classifyProviderError', () => {
  it.each([
    // llama.cpp server: exceed_context_size_error with 400; "Context size has been exceeded." with 500.
    [
      {
        statusCode: 400,
        type: 'exceed_context_size_error',
        message: 'request (4476 tokens) exceeds the available context size (4096 tokens)',
      },
      'context_overflow',
    ],
    [{ statusCode: 500, type: 'server_error', message: 'Context size has been exceeded.' }, 'context_overflow'],
    // Anthropic docs: a prompt over the window is a 400 invalid_request_error "prompt is too long".
    [
      { statusCode: 400, type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      'context_overflow',
    ],
    [
      {
        statusCode: 400,
        code: 'context_length_exceeded',
        message: "This model's maximum context length is 8192 tokens.",
      },
      'context_overflow',
    ],
    // vLLM: unknown server-side types are server errors.
    [{ type: 'internal_error', message: 'engine died', inBody: true }, 'server_error'],
    [{ statusCode: 500, type: 'InternalServerError', message: 'x' }, 'server_error'],
    [{ statusCode: 529, type: 'overloaded_error', message: 'Overloaded' }, 'overloaded'],
    [{ type: 'overloaded_error', inBody: true }, 'overloaded'],
    [{ statusCode: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' }, 'quota_exceeded'],
    [{ statusCode: 429, type: 'requests', code: 'rate_limit_exceeded' }, 'rate_limit'],
    [{ statusCode: 401, type: 'authentication_error' }, 'auth'],
    [{ statusCode: 403, type: 'permission_error' }, 'permission'],
    [{ statusCode: 404, message: 'model not found' }, 'not_found'],
    [{ statusCode: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' }, 'tools_unsupported'],
    [{ statusCode: 500, message: 'tools param requires --jinja flag' }, 'tools_unsupported'],
    [{ statusCode: 400, param: 'response_format', message: 'Invalid schema' }, 'response_format_unsupported'],
    [
      { statusCode: 400, message: "'response_format.type' must be 'json_schema' or 'text'" },
      'response_format_unsupported',
    ],
    [{ statusCode: 400, code: 'content_filter', message: 'The response was filtered' }, 'content_filter'],
    [{ statusCode: 500, message: 'Failed to apply chat template' }, 'invalid_request'],
    [
      { statusCode: 400, type: 'invalid_request_error', message: 'tools.0.input_schema: JSON schema is invalid' },
      'invalid_request',
    ],
    [{ payloadStatus: 503, message: 'x', inBody: true }, 'server_error'],
    [{ message: 'something', inBody: true }, 'server_error'],
    [{ statusCode: 418 }, 'unknown'],
  ])('%j is %s', (facts, kind) => {
    expect(classifyProviderError(facts).kind).toBe(kind);
  });

  it('keeps the provider word beside the shared kind', () => {
    expect(classifyProviderError({ statusCode: 500, message: 'Cannot use tools with stream' })).toEqual({
      kind: 'tools_unsupported',
      providerKind: 'tools_unsupported_in_stream',
    });
    expect(classifyProviderError({ statusCode: 529, type: 'overloaded_error' }).providerKind).toBe('overloaded_error');
  });
});

describe('deriveRetry', () => {
  it('retries by kind, and keeps the wait only for a retryable kind', () => {
    const headers = new Headers({ 'retry-after': '2' });
    expect(deriveRetry('rate_limit', 429, headers)).toEqual({ isRetryable: true, retryAfterMs: 2000 });
    expect(deriveRetry('quota_exceeded', 429, headers)).toEqual({ isRetryable: false, retryAfterMs: undefined });
    expect(deriveRetry('context_overflow', 500, headers).isRetryable).toBe(false);
    expect(deriveRetry('unknown', 409).isRetryable).toBe(true);
    expect(deriveRetry('unknown', undefined).isRetryable).toBe(false);
  });
});

describe('classifyProviderError precedence', () => {
  it('a code beats a type, and a telling status beats the generic invalid_request_error type', () => {
    // OpenAI docs, Error codes: 401 invalid_api_key comes with type invalid_request_error.
    expect(
      classifyProviderError({ statusCode: 401, type: 'invalid_request_error', code: 'invalid_api_key' }).kind,
    ).toBe('auth');
    expect(
      classifyProviderError({ statusCode: 404, type: 'invalid_request_error', code: 'model_not_found' }).kind,
    ).toBe('not_found');
    expect(classifyProviderError({ statusCode: 404, type: 'invalid_request_error' }).kind).toBe('not_found');
    expect(classifyProviderError({ statusCode: 500, type: 'invalid_request_error' }).kind).toBe('invalid_request');
  });
});

describe('classifyProviderError: the status and the type decide, wording only refines', () => {
  // Cases from a breaker's run (issue 34): wording that names another class must not move an error
  // out of the class its status and type give.
  it.each([
    [{ statusCode: 429, type: 'rate_limit_error', message: 'Too many tokens per minute; retry shortly' }, 'rate_limit'],
    [{ statusCode: 429, type: 'rate_limit_error', message: 'context window of this minute is full' }, 'rate_limit'],
    [{ statusCode: 429, code: 'context_length_exceeded' }, 'rate_limit'],
    [
      { statusCode: 429, type: 'rate_limit_error', message: 'Rate limit: insufficient credits remaining' },
      'quota_exceeded',
    ],
    [{ statusCode: 429, code: 'insufficient_quota' }, 'quota_exceeded'],
    [
      { statusCode: 529, type: 'overloaded_error', message: 'Overloaded: context window cache full, retry' },
      'overloaded',
    ],
    [{ statusCode: 529, message: 'context size exceeded upstream' }, 'overloaded'],
    [
      { statusCode: 503, type: 'server_error', message: 'tool calling backend not enabled on this replica yet' },
      'server_error',
    ],
    [{ statusCode: 503, type: 'overloaded_error', message: 'busy' }, 'overloaded'],
    [{ statusCode: 401, message: 'the prompt is too long for your key' }, 'auth'],
  ] as const)('%j is %s', (facts, kind) => {
    expect(classifyProviderError(facts).kind).toBe(kind);
  });

  it.each([
    // llama.cpp tools/server: 400 exceed_context_size_error and 500 "Context size has been exceeded".
    [{ statusCode: 500, type: 'server_error', message: 'Context size has been exceeded.' }, 'context_overflow'],
    [
      { statusCode: 400, type: 'exceed_context_size_error', message: 'request exceeds the available context size' },
      'context_overflow',
    ],
    // Anthropic errors guide: a prompt past the window is a 400 invalid_request_error.
    [
      { statusCode: 400, type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      'context_overflow',
    ],
    [{ statusCode: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' }, 'tools_unsupported'],
    [{ inBody: true, message: 'Context size has been exceeded.' }, 'context_overflow'],
  ] as const)('wording refines within a request or server class: %j is %s', (facts, kind) => {
    expect(classifyProviderError(facts).kind).toBe(kind);
  });
});
