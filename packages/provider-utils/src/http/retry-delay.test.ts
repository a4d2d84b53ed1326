import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryDelay } from './retry-delay.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('retryDelay', () => {
  it('prefers retry-after-ms, then retry-after', () => {
    expect(retryDelay(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryDelay(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
  });
  it('reads retry-after only in its RFC 9110 forms (digits or an HTTP-date), never another number notation', () => {
    expect(retryDelay(new Headers({ 'retry-after': '0x10' }), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after': '1e3' }), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after': '1.5' }), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after': '+7' }), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after': '2026' }), now)).toBe(2_026_000);
    expect(retryDelay(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:09 GMT' }), now)).toBe(9000);
    expect(retryDelay(new Headers({ 'retry-after': 'Thursday, 01-Jan-26 00:00:04 GMT' }), now)).toBe(4000);
    expect(retryDelay(new Headers({ 'retry-after': 'Thu Jan  1 00:00:02 2026' }), now)).toBe(2000);
    // Date.parse would read these, but they are no HTTP-date.
    expect(retryDelay(new Headers({ 'retry-after': '2026-01-01T00:00:09Z' }), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after-ms': '0x10' }), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after-ms': '1e3', 'retry-after': '2' }), now)).toBe(2000);
    expect(retryDelay(new Headers({ 'retry-after-ms': '12.5' }), now)).toBe(12.5);
  });
  it('takes the earliest reset among exhausted Anthropic limits (RFC 3339 times)', () => {
    const headers = new Headers({
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:20Z',
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:05Z',
      'anthropic-ratelimit-input-tokens-remaining': '900',
      'anthropic-ratelimit-input-tokens-reset': '2026-01-01T00:00:01Z',
    });
    expect(retryDelay(headers, now)).toBe(5000);
  });
  it('reads OpenAI reset durations of exhausted limits', () => {
    const headers = new Headers({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '6m0s',
      'x-ratelimit-remaining-tokens': '12',
      'x-ratelimit-reset-tokens': '20ms',
    });
    expect(retryDelay(headers, now)).toBe(360_000);
    expect(
      retryDelay(new Headers({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1.5s' }), now),
    ).toBe(1500);
  });
  it('is undefined when nothing says, or the reset is unreadable', () => {
    expect(retryDelay(undefined, now)).toBeUndefined();
    expect(retryDelay(new Headers(), now)).toBeUndefined();
    expect(
      retryDelay(new Headers({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': 'soon' }), now),
    ).toBeUndefined();
  });
});

describe('retryDelay bounds', () => {
  it('clamps a huge Retry-After to one hour and a negative one to 0', () => {
    expect(retryDelay(new Headers({ 'retry-after': '99999999999' }))).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(3_600_000);
    expect(retryDelay(new Headers({ 'retry-after': '3' }))).toBe(3000);
    const late = retryDelay(
      new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '999h' }),
    );
    expect(late).toBe(MAX_RETRY_AFTER_MS);
  });
});
