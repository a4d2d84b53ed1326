import { describe, expect, it } from 'vitest';
import { redactSecret } from './redact-secret.js';

describe('redactSecret', () => {
  it('replaces every occurrence, leaves short secrets and undefined text alone', () => {
    expect(redactSecret('key sk-abcd and sk-abcd again', 'sk-abcd')).toBe('key [redacted] and [redacted] again');
    expect(redactSecret('the cat', 'cat')).toBe('the cat');
    expect(redactSecret(undefined, 'sk-abcd')).toBeUndefined();
    expect(redactSecret('nothing', undefined)).toBe('nothing');
  });
});
