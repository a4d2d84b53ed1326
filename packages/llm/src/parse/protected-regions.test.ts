import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAt } from './__fixtures__/grammar-fragment-arbitrary.js';
import { feedFence, finishFence, initialFenceState } from './fence-tracker.js';
import { findProtectedRegions } from './protected-regions.js';
import { lowerAscii } from './text-scanning.js';

/** Ranges sorted and merged, as `findProtectedRegions` reports them. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

function spans(text: string): string[] {
  return findProtectedRegions(text).ranges.map(([start, end]) => text.slice(start, end));
}

describe('findProtectedRegions', () => {
  it('protects fences with a language and leaves bare and call fences alone', () => {
    const text = 'a\n```rust\nx\n```\nb\n~~~js\ny\n';
    expect(spans(text)).toEqual(['```rust\nx\n```', '~~~js\ny\n']);
    expect(spans('```\nplain\n```')).toEqual([]);
    for (const language of ['tool_call', 'TOOLCALL', 'tool-call', 'invoke', 'tool_calls']) {
      expect(spans(`\`\`\`${language}\n{}\n\`\`\``)).toEqual([]);
    }
  });

  it('needs three fence characters and at most three spaces of indent', () => {
    // Not fences, but still code: a two-backtick inline span, and runs indented past three spaces.
    expect(spans('``json\n{"a":1}\n``\n')).toEqual(['``json\n{"a":1}\n``']);
    expect(spans('    ```rust\nfn main() {}\n    ```\n')).toEqual(['```rust\nfn main() {}\n    ```']);
    expect(spans('``json\n\n{"a":1}\n``\n')).toEqual([]);
    expect(spans('   ```rust\nfn main() {}\n   ```\n')).toEqual(['   ```rust\nfn main() {}\n   ```']);
  });

  it('ends a range at the closing run, which may carry trailing text, and protects an unclosed fence to the end', () => {
    const text = '```json\n{"a":1}\n```<tool_call>';
    expect(spans(text)).toEqual(['```json\n{"a":1}\n```']);
    expect(spans('text\n```py\nprint(1)\n')).toEqual(['```py\nprint(1)\n']);
    expect(spans('````md\n```\nstill inside\n````\nout')).toEqual(['````md\n```\nstill inside\n````']);
    expect(spans('```md\n~~~\nstill inside\n```\nout')).toEqual(['```md\n~~~\nstill inside\n```']);
  });

  it('reports the end of the span containing a position', () => {
    const text = 'before\n```json\n<tool_call>x</tool_call>\n```\nafter';
    const regions = findProtectedRegions(text);
    const inside = text.indexOf('<tool_call>');
    expect(regions.endAt(inside)).toBe(text.indexOf('\nafter'));
    expect(regions.endAt(0)).toBe(-1);
    expect(regions.endAt(text.length - 1)).toBe(-1);
  });

  it('protects the same positions when the text before them was fed earlier', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('```', '~~~', 'json', 'tool_call', ' ', '\n', 'x', '`', '    ', 'py '), {
          maxLength: 40,
        }),
        fc.nat(),
        (pieces, cutSeed) => {
          const text = pieces.join('');
          const cut = text.length === 0 ? 0 : cutSeed % text.length;
          const state = initialFenceState();
          feedFence(state, text.slice(0, cut), () => {});
          const whole = findProtectedRegions(text);
          const rest = findProtectedRegions(text.slice(cut), state, true);
          for (let position = cut; position < text.length; position++) {
            expect(rest.endAt(position - cut) >= 0).toBe(whole.endAt(position) >= 0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('marks a last fence line whose language is still arriving as undecided in a stream', () => {
    expect(findProtectedRegions('ok\n```pyt', undefined, false).undecidedFrom).toBe(3);
    expect(findProtectedRegions('ok\n```python\n', undefined, false).undecidedFrom).toBe(-1);
    expect(findProtectedRegions('ok\n```pyt', undefined, true).undecidedFrom).toBe(-1);
  });

  describe('inline code spans', () => {
    it('protects markup quoted in backticks, single or multi-backtick', () => {
      expect(spans('write `<invoke name="x">` like that')).toEqual(['`<invoke name="x">`']);
      expect(spans('use ``<tool_call>`{}`</tool_call>`` here')).toEqual(['``<tool_call>`{}`</tool_call>``']);
    });

    it('leaves an unclosed, escaped or blank-line-crossed run literal', () => {
      expect(spans('a ` b <tool_call>')).toEqual([]);
      expect(spans('a \\` b ` c')).toEqual([]);
      expect(spans('a ` b\n\n c ` d')).toEqual([]);
      expect(spans('a ` b\n```\n c ` d')).toEqual([]);
    });

    it('never treats fence lines as span runs', () => {
      expect(spans('```tool_call\n{"name":"a"}\n```')).toEqual([]);
    });

    it('leaves calls after an open span undecided in a stream until it closes', () => {
      expect(findProtectedRegions('see `<tool_call>', undefined, false, false).undecidedCallsFrom).toBe(4);
      expect(findProtectedRegions('see `x` <tool_call>', undefined, false, false).undecidedCallsFrom).toBe(-1);
    });
  });

  describe('with the lowered text the scan context has', () => {
    // Reasoning tokens in any case (one with a Kelvin sign, which lowers to `k`), parts of them,
    // pipes, backticks and line ends: the fast token check must never miss what the full one finds.
    const fragment = fc.constantFrom(
      '<think>',
      '</think>',
      '<THINK>',
      '</Thinking>',
      '<thin\u212a>',
      '[think]',
      '[/THINK]',
      '<|channel|>analysis<|message|>',
      '<|end|>',
      '<|tool_call_begin|>',
      '<|tool_calls_section_begin|>',
      'hink',
      '<thi',
      'nk>',
      '|',
      '`',
      '```js\n',
      '```\n',
      '\n',
      'İ',
      'prose ',
      '<tool_call>{"a":1}</tool_call>',
    );
    const text = fc.array(fragment, { maxLength: 24 }).map((parts) => parts.join(''));

    it('finds the same regions as without it', () => {
      fc.assert(
        fc.property(text, fc.boolean(), fc.boolean(), (input, complete, leading) => {
          const plain = findProtectedRegions(input, undefined, complete, leading);
          const lowered = findProtectedRegions(input, undefined, complete, leading, lowerAscii(input));
          expect(lowered.ranges).toEqual(plain.ranges);
          expect(lowered.undecidedFrom).toBe(plain.undecidedFrom);
          expect(lowered.undecidedCallsFrom).toBe(plain.undecidedCallsFrom);
        }),
        { numRuns: 1000 },
      );
    });

    it('finds reasoning at the right place after a character whose lowering is longer (İ)', () => {
      // `İ` lowers to two characters; the tokens are searched in a lowering that keeps every index.
      expect(spans('İ <think>plan</think> answer')).toEqual(['<think>plan</think>']);
      // A Kelvin sign lowers to `k` in either lowering, with an İ in the text or without.
      const input = 'İ <thin\u212a>plan</thin\u212a> answer <think>x</think>';
      expect(spans(input)).toEqual(['<thin\u212a>plan</thin\u212a>', '<think>x</think>']);
      expect(spans(input.slice(2))).toEqual(['<thin\u212a>plan</thin\u212a>', '<think>x</think>']);
      expect(findProtectedRegions(input, undefined, true, true, lowerAscii(input)).ranges).toEqual(
        findProtectedRegions(input).ranges,
      );
    });

    it('finds the same regions in any split, tokens cut across pieces included', () => {
      fc.assert(
        fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (input, cuts) => {
          const pieces = splitAt(input, cuts);
          const feed = (withLower: boolean) => {
            const state = initialFenceState();
            const ranges: Array<[number, number]> = [];
            for (const piece of pieces) {
              feedFence(
                state,
                piece,
                (start, end) => ranges.push([start, end]),
                withLower ? lowerAscii(piece) : undefined,
              );
            }
            return ranges;
          };
          expect(feed(true)).toEqual(feed(false));
          // And the same as the whole text read at once.
          const state = initialFenceState();
          const ranges: Array<[number, number]> = [];
          for (const piece of pieces) feedFence(state, piece, (start, end) => ranges.push([start, end]));
          finishFence(state, true, (start, end) => ranges.push([start, end]));
          expect(merged(ranges)).toEqual(findProtectedRegions(input).ranges);
        }),
        { numRuns: 1000 },
      );
    });
  });
});
