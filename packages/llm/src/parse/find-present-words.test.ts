import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPresentWords } from './find-present-words.js';

const words = ['call', 'calls', 'invoke', 'function', ':tool_call', 'functools[', 'tool_code', '<tools'];

describe('findPresentWords', () => {
  it('finds words that overlap or start at the same place, in any order', () => {
    const filler = 'x'.repeat(5000);
    expect(findPresentWords(`${filler}tool_calls${filler}<tools`, words)).toEqual(new Set(['call', 'calls', '<tools']));
    expect(findPresentWords(`${filler}minimax:tool_call>`, words)).toEqual(new Set(['call', ':tool_call']));
    expect(findPresentWords(filler, words)).toEqual(new Set());
  });

  it('agrees with a search per word, on short and long texts', () => {
    const part = fc.constantFrom(...words, 'cal', 'invok', 'functools', ' ', 'x'.repeat(700), '[', ':');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(findPresentWords(text, words)).toEqual(new Set(words.filter((word) => text.includes(word))));
      }),
      { numRuns: 500 },
    );
  });
});
