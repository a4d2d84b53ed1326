import { TinyError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { isRetryableStatus, ModelCallError } from './model-call-error.js';
import { isRetryableKind, kindFromStatus, MODEL_CALL_ERROR_KINDS } from './model-call-error-kind.js';

describe('isRetryableStatus', () => {
  it.each([408, 409, 429, 500, 502, 503, 529, 599])('retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
  it.each([200, 400, 401, 403, 404, 413, 422, 600])('does not retry %i', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe('ModelCallError', () => {
  it('derives isRetryable from the status unless given', () => {
    expect(new ModelCallError({ message: 'rate limited', statusCode: 429 }).isRetryable).toBe(true);
    expect(new ModelCallError({ message: 'bad request', statusCode: 400 }).isRetryable).toBe(false);
    expect(new ModelCallError({ message: 'socket hang up' }).isRetryable).toBe(false);
    expect(new ModelCallError({ message: 'socket hang up', isRetryable: true }).isRetryable).toBe(true);
  });

  it('is a TinyError recognised by its marker, with its facts and cause', () => {
    const cause = new Error('inner');
    const error = new ModelCallError({
      message: 'boom',
      statusCode: 503,
      responseBody: '{"error":"x"}',
      provider: 'openai',
      cause,
    });
    expect(TinyError.isInstance(error)).toBe(true);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(ModelCallError.isInstance(new Error('boom'))).toBe(false);
    expect(error).toMatchObject({
      name: 'ModelCallError',
      statusCode: 503,
      responseBody: '{"error":"x"}',
      provider: 'openai',
      cause,
    });
  });
});

describe('ModelCallError kinds', () => {
  it('reads the kind from the status when none is given, and retryability from the kind', () => {
    expect(new ModelCallError({ message: 'x', statusCode: 429 })).toMatchObject({
      kind: 'rate_limit',
      isRetryable: true,
    });
    expect(new ModelCallError({ message: 'x', statusCode: 529 })).toMatchObject({
      kind: 'overloaded',
      isRetryable: true,
    });
    expect(new ModelCallError({ message: 'x', statusCode: 401 })).toMatchObject({ kind: 'auth', isRetryable: false });
    expect(new ModelCallError({ message: 'x', statusCode: 409 })).toMatchObject({ kind: 'unknown', isRetryable: true });
    expect(new ModelCallError({ message: 'x', statusCode: 418 })).toMatchObject({
      kind: 'unknown',
      isRetryable: false,
    });
    expect(new ModelCallError({ message: 'x' })).toMatchObject({ kind: 'unknown', isRetryable: false });
  });

  it('a given kind decides retryability whatever the status, and keeps the provider word beside it', () => {
    const overflow = new ModelCallError({
      message: 'x',
      kind: 'context_overflow',
      providerKind: 'exceed_context_size_error',
      statusCode: 500,
    });
    expect(overflow).toMatchObject({ isRetryable: false, providerKind: 'exceed_context_size_error' });
    expect(new ModelCallError({ message: 'x', kind: 'invalid_chunk', statusCode: 200 }).isRetryable).toBe(true);
    expect(new ModelCallError({ message: 'x', kind: 'protocol_violation', statusCode: 200 }).isRetryable).toBe(false);
  });

  it('names every kind once and retries exactly the transient ones', () => {
    expect(new Set(MODEL_CALL_ERROR_KINDS).size).toBe(MODEL_CALL_ERROR_KINDS.length);
    expect(MODEL_CALL_ERROR_KINDS.filter((kind) => isRetryableKind(kind))).toEqual([
      'rate_limit',
      'overloaded',
      'incomplete_stream',
      'invalid_chunk',
      'server_error',
      'network',
      'timeout',
    ]);
    expect(kindFromStatus(503)).toBe('server_error');
    expect(kindFromStatus(undefined)).toBe('unknown');
  });
});
