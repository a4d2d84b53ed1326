import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAt } from './__fixtures__/grammar-fragment-arbitrary.js';
import { feedFence, finishFence, initialFenceState } from './fence-tracker.js';
import { findProtectedRegions } from './protected-regions.js';
import { reasoningCallTokens } from './reasoning-tracker.js';
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
    expect(spans('x\n    ```rust\nfn main() {}\n    ```\n')).toEqual(['```rust\nfn main() {}\n    ```']);
    expect(spans('``json\n\n{"a":1}\n``\n')).toEqual([]);
    expect(spans('   ```rust\nfn main() {}\n   ```\n')).toEqual(['   ```rust\nfn main() {}\n   ```']);
  });

  it("reads the reply's leading whitespace as layout, never as the first fence line's indent", () => {
    // Prepending whitespace to a reply never changes what is an example (leading-whitespace.property.test.ts).
    for (const lead of ['    ', '\t', '\u00a0', '\n \n\t  ', '\u2003\u2003\u2003\u2003']) {
      const text = `${lead}\`\`\`json\n{"a":1}\n\`\`\`\nafter`;
      expect(findProtectedRegions(text).ranges).toEqual([[lead.lastIndexOf('\n') + 1, text.indexOf('\nafter')]]);
    }
    // Only up to the first character: a later line indented four spaces is still no fence.
    expect(spans('x\n    ```json\n{"a":1}\n')).toEqual([]);
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
    // Every call token that may end a region, whole, cut in two, and followed by the start of its
    // grammar's call (what makes it end the region) or by a near miss (`<invoker`, a bare `call`).
    const callTokens = reasoningCallTokens(() => true).map((rule) => rule.token);
    const callPieces = callTokens.flatMap((token) => {
      const cut = Math.ceil(token.length / 2);
      return [token, token.slice(0, cut), token.slice(cut)];
    });
    const fragment = fc.constantFrom(
      ...callPieces,
      '<|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>',
      '<|open|>call ',
      '<|open|>call',
      'call:get',
      '<invoke name="t">',
      '<invoke',
      'r',
      ']<]minimax[>[',
      '~~~py\n',
      '    ',
      'x'.repeat(40),
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
    const text = fc.array(fragment, { maxLength: 32 }).map((parts) => parts.join(''));
    // The shape that decides where a region ends: maybe a fence or a backtick before, an opener or
    // none (a leading closer may end the region the prompt opened), then call tokens alone, each
    // with the start of its grammar's call (it ends the region), near misses a split could take
    // for a call start (`<invoker`, `callr`), and filler that pushes context out of a stream's
    // tail; maybe a closer.
    const callStarts: Record<string, string> = {
      '<|tool_calls_section_begin|>': '<|tool_call_begin|>',
      '<|tool_call_begin|>': 'functions.get:0<|tool_call_argument_begin|>',
      '<|open|>tools<|sep|>': '<|open|>call ',
      '<start_function_call>': 'call:get',
      ']<]minimax[>[<tool_call>': '<invoke name="t">',
    };
    const middle = fc.constantFrom(
      ...callTokens,
      ...callTokens.map((token) => token + (callStarts[token] ?? '')),
      '<|open|>tools<|sep|><|open|>callr',
      ']<]minimax[>[<tool_call><invoker',
      '<start_function_call>call:',
      'r',
      ' ',
      '>',
      '`',
      '\n```\n',
      // ~~~ fences (a ``` inside does not close them), blank lines (they end an open span), many
      // closed spans before a token, and filler lines that push a fence's opener far back.
      '\n~~~\n',
      '\n~~~~ text\n',
      '\n\n',
      '`a` '.repeat(24),
      `${'y'.repeat(60)}\n`.repeat(5),
      'x'.repeat(70),
      'x'.repeat(200),
    );
    const shaped = fc
      .tuple(
        fc.constantFrom(
          '',
          '```\n',
          '```js\n',
          '`',
          '~~~\n',
          `${'x'.repeat(50)}\n\`\`\`\n`,
          `~~~\n${'z'.repeat(300)}\n`,
          `\`\`\`\n${'z\n'.repeat(150)}`,
          `\`${'z'.repeat(90)}\` and \``,
        ),
        fc.constantFrom('<think>', '[THINK]', '<|channel|>analysis<|message|>', ''),
        fc.array(middle, { maxLength: 12 }),
        fc.constantFrom('', '</think>', '[/think]', '<|end|>', `${'x'.repeat(200)}</think>`),
      )
      .map(([before, opener, between, closer]) => [before, opener, ...between, closer].join(''));

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

    /** The regions found when `pieces` arrive one by one, merged as a whole reading reports them. */
    function readInPieces(pieces: readonly string[]): Array<[number, number]> {
      const state = initialFenceState();
      const ranges: Array<[number, number]> = [];
      for (const piece of pieces) feedFence(state, piece, (start, end) => ranges.push([start, end]));
      finishFence(state, true, (start, end) => ranges.push([start, end]));
      return merged(ranges);
    }

    it('keeps the text before a reasoning opener as context for the call tokens after it', () => {
      // The CI counterexample (Node 24 lane): the split tail was cut just past `<think>`, so the
      // fence before it was lost and the section token, a mention inside the fence when the text is
      // read whole, ended the region. The property maps the number to a cut modulo length + 1 (11).
      const input = '```\n<think><|tool_calls_section_begin|><|tool_call_begin|>';
      const pieces = splitAt(input, [19938530]);
      expect(pieces).toEqual(['```\n<think>', '<|tool_calls_section_begin|><|tool_call_begin|>']);
      expect(findProtectedRegions(input).ranges).toEqual([[4, 58]]);
      expect(readInPieces(pieces)).toEqual([[4, 58]]);
    });

    it('never judges a call token again once its window before has left the carried tail', () => {
      // The section token is a mention (inside the fence 11 characters before it); when the next
      // piece arrives the tail no longer holds that fence, and reading the token again would end
      // the region there.
      const first = `\`\`\`\n<think><|tool_calls_section_begin|><|tool_call_begin|>${'x'.repeat(138)}`;
      expect(findProtectedRegions(`${first}>`).ranges).toEqual([[4, 197]]);
      expect(readInPieces([first, '>'])).toEqual([[4, 197]]);
    });

    it('reads again a call token judged before its call arrived, even after pieces without > or ]', () => {
      // The call token decides the start (so the later `</think>` is not a leading closer), but its
      // call start arrives in a piece that holds no token character.
      const pieces = ['<start_function_call>', `call:get${'x'.repeat(300)}`, '</think>'];
      expect(findProtectedRegions(pieces.join('')).ranges).toEqual([]);
      expect(readInPieces(pieces)).toEqual([]);
    });

    it('does not take a call start cut at the end of a piece for a whole one (`call` then `r`)', () => {
      for (const pieces of [
        ['<think><|open|>tools<|sep|><|open|>call', 'r x'],
        ['<think>]<]minimax[>[<tool_call><invoke', 'r x'],
      ]) {
        const whole = findProtectedRegions(pieces.join('')).ranges;
        expect(whole).toEqual([[0, pieces.join('').length]]);
        expect(readInPieces(pieces)).toEqual(whole);
      }
      // A real call start still ends the region, in pieces or whole.
      const real = ['<think><|open|>tools<|sep|><|open|>call', ' tool="t"'];
      expect(readInPieces(real)).toEqual([[0, 7]]);
      expect(findProtectedRegions(real.join('')).ranges).toEqual([[0, 7]]);
    });

    it('finds the same regions in any split, tokens cut across pieces included', () => {
      fc.assert(
        fc.property(fc.oneof(text, shaped), fc.array(fc.nat(), { maxLength: 12 }), (input, cuts) => {
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

    it('never ends a region at a call token quoted in a fence or a code span, however much text is between', () => {
      // Whatever comes before (closed spans, lines, closed fences) and however long the quoted
      // block runs before the token, a call quoted in reasoning is a mention: the region runs to its
      // closer, whole or in any split. Each call token comes with the start of its grammar's call.
      const filler = fc.constantFrom(
        'prose ',
        '`a` ',
        '``b`` ',
        '\n',
        'y'.repeat(70),
        '\n~~~\n~~~\n',
        '\n```\nq\n```\n',
      );
      const quote = fc.constantFrom(
        ['\n```\n', '\n```\n'],
        ['\n~~~\n', '\n~~~\n'],
        ['\n````md\n', '\n````\n'],
        ['\n~~~~~\n```\n', '\n~~~~~\n'],
        ['`', '`'],
        ['``', '``'],
        [' ```', '``` '],
      );
      fc.assert(
        fc.property(
          fc.array(filler, { maxLength: 10 }),
          quote,
          fc.array(fc.constantFrom('z', 'z\n', 'z'.repeat(90), '\n~~~ no\n', '\n```tool_call\n', '\n~~~tool_call\n'), {
            maxLength: 8,
          }),
          fc.constantFrom(...callTokens),
          fc.array(fc.nat(), { maxLength: 8 }),
          (before, [open, close], inside, token, cuts) => {
            // Inline code cannot hold a blank line or a fence line, and a backtick run inside would
            // close it: line ends and backticks only in fences.
            const body = open.includes('\n') ? inside.join('') : inside.join('').replace(/\n/g, ' ').replace(/`/g, "'");
            const input = `<think>${before.join('')}${open}${body}${token}${callStarts[token] ?? ''}${close}ok</think>after`;
            // Protected from the start through the closer at least (a `~~~ no` line inside a bare
            // fence opens a protected fence that runs to the end: also fine).
            const whole = findProtectedRegions(input).ranges;
            expect(whole[0]?.[0]).toBe(0);
            expect(whole[0]?.[1]).toBeGreaterThanOrEqual(input.indexOf('</think>') + '</think>'.length);
            expect(readInPieces(splitAt(input, cuts))).toEqual(whole);
          },
        ),
        { numRuns: 500 },
      );
      // The same call token, unquoted after all that, ends the region (the property above can fail).
      const token = '<|tool_call_begin|>';
      const input = `<think>\`a\` \n~~~\nz\n~~~\n${token}${callStarts[token]}{}</think>`;
      expect(findProtectedRegions(input).ranges[0]).toEqual([0, input.indexOf(token)]);
    });
  });
});
