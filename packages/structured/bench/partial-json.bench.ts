import { bench, describe } from 'vitest';
import { createPartialJsonParser } from '../src/partial/create-partial-json-parser.js';
import { createFixture, splitInto } from './fixture.js';

// The acceptance figure: 1,000 deltas of a 50 KB object, against one JSON.parse of the whole.
// Then the scaling check: 1,000 deltas of 5 KB, 50 KB and 500 KB (time should grow ~10x per step).

function parseIncrementally(pieces: readonly string[]): unknown {
  const parser = createPartialJsonParser();
  for (const piece of pieces) parser.push(piece);
  return parser.end();
}

const text50 = createFixture(50_000);
const pieces50 = splitInto(text50, 1_000);

describe('50 KB object', () => {
  bench('JSON.parse of the whole text', () => {
    JSON.parse(text50);
  });
  bench('incremental parser, 1,000 deltas', () => {
    parseIncrementally(pieces50);
  });
  bench('incremental parser, 1,000 deltas, reading the partial value after each', () => {
    const parser = createPartialJsonParser();
    let seen: unknown;
    for (const piece of pieces50) {
      parser.push(piece);
      seen = parser.value;
    }
    if (seen === undefined) throw new Error('no value');
    parser.end();
  });
});

for (const bytes of [5_000, 50_000, 500_000]) {
  const text = createFixture(bytes);
  const pieces = splitInto(text, 1_000);
  describe(`scaling: ${bytes / 1000} KB in 1,000 deltas`, () => {
    bench(`JSON.parse ${bytes / 1000} KB`, () => {
      JSON.parse(text);
    });
    bench(`incremental ${bytes / 1000} KB`, () => {
      parseIncrementally(pieces);
    });
  });
}
