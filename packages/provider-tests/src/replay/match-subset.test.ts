import { describe, expect, it } from 'vitest';
import { subsetMismatches } from './match-subset.js';

describe('subsetMismatches', () => {
  it('matches objects by the keys given and arrays element by element', () => {
    expect(subsetMismatches({ a: 1, b: [{ c: 'x' }] }, { a: 1, b: [{ c: 'x', d: 2 }], e: 3 })).toEqual([]);
    expect(subsetMismatches({ b: [1] }, { b: [1, 2] })).toEqual(['$.b: expected 1 elements, got 2: [1,2]']);
    expect(subsetMismatches({ a: { b: 1 } }, { a: { b: 2 } })).toEqual(['$.a.b: expected 1, got 2']);
  });

  it('understands $any, $contains and $absent', () => {
    expect(
      subsetMismatches(
        { id: '$any', text: { $contains: 'lo w' }, tools: { $absent: true } },
        { id: 7, text: 'hello world' },
      ),
    ).toEqual([]);
    expect(subsetMismatches({ id: '$any' }, {})).toEqual(['$.id: missing']);
    expect(subsetMismatches({ tools: { $absent: true } }, { tools: [] })).toEqual([
      '$.tools: expected no such key, got []',
    ]);
    expect(subsetMismatches({ text: { $contains: 'x' } }, { text: 'y' })).toEqual([
      '$.text: expected a string containing "x", got "y"',
    ]);
  });
});
