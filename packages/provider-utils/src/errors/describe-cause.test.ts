import { describe, expect, it } from 'vitest';
import { describeCause } from './describe-cause.js';

describe('describeCause', () => {
  it('names an error with its own cause, other values as text, nothing as empty', () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(describeCause(cause)).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
    expect(describeCause('dropped')).toBe('dropped');
    expect(describeCause(undefined)).toBe('');
  });
});
