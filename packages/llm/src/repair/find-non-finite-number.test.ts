import { describe, expect, it } from 'vitest';
import { findNonFiniteNumber } from './find-non-finite-number.js';

describe('findNonFiniteNumber', () => {
  it('names the first non-finite number by JSON pointer', () => {
    expect(findNonFiniteNumber(JSON.parse('{"a": [1, {"b/c": 1e999}], "d": -1e999}'))).toBe('/a/1/b~1c');
    expect(findNonFiniteNumber(Number.NaN)).toBe('/');
    expect(findNonFiniteNumber({ a: [1, 2.5, -0], b: 'Infinity', c: null })).toBeUndefined();
  });

  it('walks deep values without recursion', () => {
    let deep: unknown = Number.POSITIVE_INFINITY;
    for (let level = 0; level < 900; level++) deep = [deep];
    expect(findNonFiniteNumber(deep)).toBe('/0'.repeat(900));
  });
});
