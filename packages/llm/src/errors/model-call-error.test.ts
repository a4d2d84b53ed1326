import { TinyError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { isRetryableStatus, ModelCallError } from './model-call-error.js';

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
