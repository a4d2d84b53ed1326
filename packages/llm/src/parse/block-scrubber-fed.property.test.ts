import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { BlockScrubber } from './block-scrubber.js';
import { createToolKnowledge } from './scan-context.js';

/**
 * The block scrubber keeps the whole stream fed for the whole-response guard without a copy of its
 * own: `fed()` joins the text read for fences, the text released without a scan and the held
 * tail. Whatever is released, held, scanned or read for fences, it must be exactly what was fed.
 */
const add: ToolSchema = {
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
};

const pieces = [
  ...'abc xyz 019 .,;:!?-()>}"\'',
  '\n',
  '\n\n',
  '\t',
  '\u00a0',
  '文',
  'functools',
  '<',
  '[',
  ']',
  '{',
  '`',
  '~',
  '\u201c',
  '\u201d',
  '<think>',
  '</think>',
  '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>',
  '<tool_call>{"name": "add", ',
  '{"name": "add", "arguments": {"a": 3, "b": 4}}',
  '```\n',
  '```json\n',
  '[TOOL_CALLS]',
  '<|python_tag|>',
  'x'.repeat(300),
];

const texts = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 60 }).map((parts) => parts.join(''));

/** `text` cut into fragments at `cuts` (taken modulo its length). */
function fragmentsOf(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const fragments: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    fragments.push(text.slice(from, point));
    from = point;
  }
  return fragments;
}

describe('the text a block scrubber keeps for the guard', () => {
  it.each([
    ['no tools', undefined],
    ['an offered tool', [add]],
  ] as const)('with %s, is the stream fed so far after every feed, for any split', (_, tools) => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 30 }), fc.boolean(), (text, cuts, oneCharacter) => {
        const blocks = new BlockScrubber(createToolKnowledge(tools, { leadingReasoning: true }), true);
        const fragments = oneCharacter ? [...text] : fragmentsOf(text, cuts);
        let fed = '';
        for (const fragment of fragments) {
          blocks.feed(fragment);
          fed += fragment;
          expect(blocks.fed()).toBe(fed);
        }
      }),
      { numRuns: 300 },
    );
  });
});
