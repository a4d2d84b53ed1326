import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { compareStream, cutAt, feedAll as run } from './__fixtures__/stream-check.js';
import { createStreamScrubber, type StreamScrubberOptions } from './create-stream-scrubber.js';
import { createToolKnowledge } from './scan-context.js';
import { readProseMarker } from './whole-reply-openers.js';

/**
 * The stream scrubber's no-scan path (a fragment of plain prose while nothing is held: released
 * without a scan, the whole-response guard passing it through in O(1) while every whole-response
 * reading is decided against) must give, for prose with rare special characters, what one whole
 * feed and the batch parse give, however the text is split.
 */
const add: ToolSchema = {
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
};
const search: ToolSchema = {
  name: 'search',
  description: 'Search.',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
  format: { type: 'ptype', parameters: ['query'] },
};

/**
 * Characters no block can start with (and some that can end one, `>`, `}`, `)`), whitespace of
 * every kind the narrative trims (tab, CR, no-break and em spaces, the line separator), `f` (the
 * start of `functools`) and letters beyond ASCII.
 */
const plainCharacters = [
  ...'abcdefghijklmnopqrstuvwxyz ABC XYZ 0123456789 .,;:!?-+=*/\\|@#$%^&_ ()>}',
  '\n',
  '\n\n',
  '\t',
  '\r\n',
  '\u00a0',
  '\u2003',
  '\u2028',
  'é',
  '文',
];

/** What may decide, hold or start something, rare in the prose. */
const rarePieces = [
  '<',
  '[',
  ']',
  '{',
  '`',
  '~',
  '\u201c',
  '</think>',
  '<think>hm</think>',
  '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>',
  '{"name": "add", "arguments": {"a": 3, "b": 4}}',
  '{"note": 1}',
  '<|python_tag|>',
  '```\n',
  '```py\n',
  'functools',
  'functools[{"name": "add", "arguments": {"a": 5, "b": 6}}]',
  ' search(',
  ' search("rust")',
  '[TOOL_CALLS]',
  '<|',
  // JSON the batch reader breaks in (`01`, `tru`) around a call whose name is escaped (`add`).
  '{"x": 01, "y": {"name": "\\u0061dd", "arguments": {"a": 1, "b": 2}}}',
  '[tru, {"name": "add", "\\u0061rguments": {"a": 1, "b": 2}}]',
];

/** As {@link rarePieces}, with lone quotation marks and apostrophes. */
const rareWithQuotes = [...rarePieces, '"', "'", '"quoted" ', "don't "];

/** How a reply may open: as prose, in reasoning, or as a whole-response JSON reading would read it. */
const openings = [
  '',
  '',
  '',
  '  ',
  '<think>',
  '```json\n',
  '{"name": "add", "arguments": {"a": 7, "b": 8}} ',
  // A `[` no call array starts so (a strict JSON array breaks or closes with no object), bare or fenced.
  '[1/2] ',
  '[1] ',
  '```toml\n[server]\n',
  '```\n[',
];
/** How it may end: a whole answer after a reasoning closer is read as one JSON value. */
const endings = [
  '',
  '',
  '',
  '</think>{"name": "add", "arguments": {"a": 1, "b": 2}}',
  '</think>\n```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```',
  '\n{"name": "add", "parameters": {"a": 1, "b": 2}}',
];

function prose(rare: readonly string[]): fc.Arbitrary<string> {
  const body = fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...plainCharacters), weight: 40 },
        { arbitrary: fc.constantFrom(...rare), weight: 1 },
      ),
      { minLength: 1, maxLength: 160 },
    )
    .map((parts) => parts.join(''));
  return fc
    .tuple(fc.constantFrom(...openings), body, fc.constantFrom(...endings))
    .map(([opening, middle, ending]) => opening + middle + ending);
}

/** `whole` cut at `cuts` (taken modulo its length, sorted, deduplicated). */

const toolSets: ReadonlyArray<readonly ToolSchema[] | undefined> = [undefined, [add], [add, search]];

describe('the stream scrubber on plain prose with rare special characters', () => {
  it('releases what one whole feed releases, split anywhere and one character at a time', () => {
    fc.assert(
      fc.property(
        prose(rareWithQuotes),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom(...toolSets),
        fc.boolean(),
        (whole, cuts, tools, leadingReasoning) => {
          const options: StreamScrubberOptions = { tools, leadingReasoning };
          const one = run([whole], options);
          for (const fragments of [cutAt(whole, cuts), [...whole]]) {
            const split = run(fragments, options);
            expect(split.text).toBe(one.text);
            expect(split.calls).toEqual(one.calls);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('releases the narrative and calls of a complete parse, each feed a prefix of it', () => {
    fc.assert(
      fc.property(
        prose(rareWithQuotes),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        fc.constantFrom<readonly ToolSchema[]>([add], [add, search]),
        (whole, cuts, oneCharacter, tools) => {
          const result = compareStream(oneCharacter ? [...whole] : cutAt(whole, cuts), tools);
          expect(result.streamedText).toBe(result.batchText);
          expect(result.streamedCalls).toEqual(result.batchCalls);
          expect(result.alwaysPrefix).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shows plain prose fed a character at a time as it arrives, but for trailing whitespace', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom(...plainCharacters.filter((character) => character !== 'f')), {
            minLength: 1,
            maxLength: 200,
          })
          // A reply whose first word could still be `add`, `all` (Functionary) or `Action:` (Command R+),
          // or that starts with `>` (`>>>`), is held until its start decides (see `whole-reply-openers.ts`).
          .filter((characters) => !/^[aA>]/.test(characters.join('').trimStart())),
        (characters) => {
          const whole = characters.join('');
          const scrubber = createStreamScrubber({ tools: [add] });
          let shown = '';
          let fed = '';
          for (const character of whole) {
            shown += scrubber.feed(character).text;
            fed += character;
            // Nothing is held but whitespace at the end (leading whitespace is dropped) and a `>` or a
            // line-start `A` that may still become a `>>>` boundary or an `Action:` line (`readProseMarker`).
            expect(fed.trim().startsWith(shown)).toBe(true);
            const held = fed.trim().slice(shown.length).trimStart();
            if (held !== '') expect(readProseMarker(held, createToolKnowledge([add]))).toBe('undecided');
          }
          expect(shown + scrubber.flush().text).toBe(whole.trim());
        },
      ),
      { numRuns: 200 },
    );
  });
});
