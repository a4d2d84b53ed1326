import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { compareStream, cutAt, feedAll } from './__fixtures__/stream-check.js';

const tools: ToolSchema[] = [
  {
    name: 'add',
    description: 'Add two integers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } },
    },
  },
];

/**
 * Shapes whose reading depends on text after a call: a fenced call whose closing run has text after
 * it on its line (a protected fence opens there, inside the call), a call token before `</think>`
 * (no leading reasoning region), a quotation mark before a call block a region opens in.
 */
const starts: readonly string[] = [
  '```tool_call\n{"name": "add", "arguments": {"a": 5}}\n```',
  '```tool_code\n{"name": "add", "arguments": {"a": 5}}\n```',
  '```\n{"name": "add", "arguments": {"a": 5}}\n```',
  '<start_function_call>call:add{a:1,b:2}<end_function_call>',
  '<|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|>',
  '"<function=add>\n<parameter=a>\n1\n</parameter>\n',
  'Sure: ',
];

const pieces: readonly string[] = [
  '</think>',
  '<think>',
  '<think>hm } </think>',
  '{"name": "add", "arguments": {"a": 1}}',
  '<tool_call>{"name": "add", "arguments": {"note": "<tool_call>nested</tool_call>"}}</tool_call>',
  '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>',
  '<|start|>assistant<|channel|>commentary to=functions.add <|constrain|>json<|message|>{"a":1,"b":2}<|call|>',
  '<|channel|>analysis<|message|>thinking } ',
  '<|end|>',
  '<invoke name="add"><parameter name="note">x } </invoke> ',
  '<invoke name="add"><parameter name="a">1</parameter></invoke>',
  '</function>',
  '```py\nx = 1\n```\n',
  '```',
  '"',
  '\n',
  ' ',
  'words ',
];

const text = fc
  .tuple(fc.constantFrom(...starts), fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }))
  .map(([start, rest]) => start + rest.join(''));

/** `whole` cut at `cuts` (taken modulo its length, sorted, deduplicated). */

const run = (fragments: readonly string[], leadingReasoning: boolean) =>
  feedAll(fragments, { tools, leadingReasoning });

describe('stream and batch agree on text decided after a call', () => {
  it('every split and a character at a time release what one whole feed releases', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (whole, cuts, leadingReasoning) => {
        const one = run([whole], leadingReasoning);
        for (const fragments of [cutAt(whole, cuts), [...whole]]) {
          const split = run(fragments, leadingReasoning);
          expect(split.text).toBe(one.text);
          expect(split.calls).toEqual(one.calls);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the stream ends equal to the complete parse and never shows more than a prefix of it', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (whole, cuts, oneCharacter) => {
        const result = compareStream(oneCharacter ? [...whole] : cutAt(whole, cuts), tools);
        expect(result.streamedText).toBe(result.batchText);
        expect(result.streamedCalls).toEqual(result.batchCalls);
        expect(result.alwaysPrefix).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
