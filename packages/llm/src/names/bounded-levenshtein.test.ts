import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedLevenshtein } from './bounded-levenshtein.js';

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      current.push(
        Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, (previous[column - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

describe('boundedLevenshtein', () => {
  it('computes small distances', () => {
    expect(boundedLevenshtein('read_file', 'read_file', 2)).toBe(0);
    expect(boundedLevenshtein('raed_file', 'read_file', 2)).toBe(2);
    expect(boundedLevenshtein('termnal', 'terminal', 2)).toBe(1);
    expect(boundedLevenshtein('', 'ab', 2)).toBe(2);
    expect(boundedLevenshtein('abc', 'xyz', 2)).toBe(3);
  });

  it('agrees with the full algorithm up to the bound', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 8 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(boundedLevenshtein(a, b, max)).toBe(Math.min(levenshtein(a, b), max + 1));
      }),
      { numRuns: 3000 },
    );
  });

  it('returns at once for very different lengths', () => {
    expect(boundedLevenshtein('x'.repeat(1_000_000), 'read_file', 2)).toBe(3);
    expect(boundedLevenshtein('x'.repeat(100_000), 'y'.repeat(100_000), 2)).toBe(3);
  });
});
