import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { compareStream, cutAt, feedAll as run } from './__fixtures__/stream-check.js';
import { createToolKnowledge } from './scan-context.js';
import { createWholeResponseGuard } from './whole-response-guard.js';

/**
 * The whole-response guard keeps the end of the stream where a reasoning token or `<|python_tag|>`
 * may have begun only while it may still become one (past `<to` a `<tool_call>` can be neither),
 * and reads the text after it without a scan. Texts of tag starts, tokens in any case and their
 * broken beginnings must give, split anywhere and a character at a time, what one whole feed gives
 * and what a complete parse gives.
 */
const add: ToolSchema = {
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
};

const pieces = [
  ...'abc thinking xyz 12 .,>]|\n',
  ' ',
  ' ',
  '<',
  '[',
  '</',
  '[/',
  '<t',
  '<th',
  '<thin',
  '<THINK',
  'K',
  '\u212a',
  'ing',
  '<think>',
  '</think>',
  '</Thinking>',
  '<thinking>',
  '[think]',
  '[/THINK]',
  '<|',
  '<|python',
  '_tag|>',
  '<|python_tag|>',
  '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>',
  '<tool_call>',
  '</tool_call>',
  '{"name": "add", "arguments": {"a": 3, "b": 4}}',
  '<to',
  // Readings the tails decide: an answer after a leading reasoning closer, a python-tagged call.
  '</think>{"name": "add", "arguments": {"a": 5, "b": 6}}',
  '</THINKING>\n{"name": "add", "arguments": {"a": 7, "b": 8}}',
  '<|python_tag|>{"name": "add", "arguments": {"a": 9, "b": 1}}',
];

const texts = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 40 }).map((parts) => parts.join(''));

describe('the tails kept where a reasoning token or the python tag may have begun', () => {
  it('release what one whole feed releases, split anywhere and one character at a time', () => {
    fc.assert(
      fc.property(
        texts,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.constantFrom<readonly ToolSchema[] | undefined>(undefined, [add]),
        fc.boolean(),
        (whole, cuts, tools, leadingReasoning) => {
          const options = { tools, leadingReasoning };
          const one = run([whole], options);
          for (const fragments of [cutAt(whole, cuts), [...whole]]) {
            const split = run(fragments, options);
            expect(split.text).toBe(one.text);
            expect(split.calls).toEqual(one.calls);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('release the narrative and calls of a complete parse, each feed a prefix of it', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 30 }), fc.boolean(), (whole, cuts, oneCharacter) => {
        const result = compareStream(oneCharacter ? [...whole] : cutAt(whole, cuts), [add]);
        expect(result.streamedText).toBe(result.batchText);
        expect(result.streamedCalls).toEqual(result.batchCalls);
        expect(result.alwaysPrefix).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the whole-response guard fed a character at a time', () => {
  // The guard alone, as if the block scrubber released every character: what it shows of each text.
  const shown = (text: string): string => {
    const guard = createWholeResponseGuard(createToolKnowledge([add]));
    if (guard === undefined) throw new Error('the guard is on with bare JSON allowed');
    let fed = '';
    let released = '';
    for (const character of text) {
      fed += character;
      released += guard.feed(character, () => fed, { text: character, calls: [], diagnostics: [] }).text;
    }
    return released;
  };

  it.each([
    'Hi <to <|python_tag|>{"name": "add"}',
    'Hi <|<|python_tag|> then',
    'Hi <|python <tool_call> <|python_tag|> then',
  ])('holds %j from its python tag on', (text) => {
    expect(shown(text)).toBe(text.slice(0, text.lastIndexOf('<|python_tag|>')));
  });

  it('shows text after a tag start that cannot become the tag', () => {
    expect(shown('Hi <|python_tab|> then more')).toBe('Hi <|python_tab|> then more');
  });
});
