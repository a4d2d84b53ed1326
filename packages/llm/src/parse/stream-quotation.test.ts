import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { compareStream, cutAt } from './__fixtures__/stream-check.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { createToolKnowledge } from './scan-context.js';
import { readProseMarker } from './whole-reply-openers.js';

const tools: ToolSchema[] = [
  { name: 'add', description: 'Add.', parameters: { type: 'object', properties: { a: { type: 'integer' } } } },
  {
    name: 'search',
    description: 'Search.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
    format: { type: 'ptype', parameters: ['query', 'limit'] },
  },
];

/** The text released by each one-character feed, and by the flush. */
function releasedPerCharacter(text: string, options: { tools?: ToolSchema[] } = {}): string[] {
  const scrubber = createStreamScrubber(options);
  const released = [...text].map((character) => scrubber.feed(character).text);
  released.push(scrubber.flush().text);
  return released;
}

/** `text` one character at a time, and split in two at every third character. */
function splits(text: string): string[][] {
  const all = [[...text]];
  for (let cut = 0; cut <= text.length; cut += 3) all.push(cutAt(text, [cut]));
  return all;
}

describe('a quotation mark in prose, streamed', () => {
  it('holds none of its line when no block follows it (a 27" monitor)', () => {
    const text = 'I bought a 27" monitor, then more text and more.';
    const released = releasedPerCharacter(text);
    const shownBy = (prefix: string): string => released.slice(0, prefix.length).join('');
    // Each word is shown once it has ended, as in prose without the mark.
    expect(shownBy('I bought a 27" monitor,')).toBe('I bought a 27" monitor,');
    expect(shownBy('I bought a 27" monitor, then more text')).toBe('I bought a 27" monitor, then more text');
    expect(released.join('')).toBe(text);
  });

  it.each([
    ['a lone mark', 'A 27" screen <tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call> after'],
    ['a quoted call', 'He typed "<tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call>" once.'],
    ['a quoted call, curly marks', 'He typed “<tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call>” once.'],
    ['a mark ending its line', 'He typed "\n<tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call> done'],
    ['a quote, then a p-type call', '“nice”  search("rust", 3)“nice” The plan '],
    ['an open quote over two calls', 'x "a <tool_call>{"name":"add","arguments":{}}</tool_call> b search("q", 1) c'],
  ])('releases the calls and text of the complete parse for every split: %s', (_name, text) => {
    for (const fragments of splits(text)) {
      const result = compareStream(fragments, tools);
      expect(result.streamedText).toBe(result.batchText);
      expect(result.streamedCalls).toEqual(result.batchCalls);
      expect(result.alwaysPrefix).toBe(true);
    }
  });

  it('shows prose with quotation marks fed a character at a time as it arrives, but for trailing whitespace', () => {
    const characters = [...'abcxyz ABC 0123 .,;:!?-()', '\n', '"', '“', '”', '«', '»', '「', '」'];
    fc.assert(
      fc.property(
        // A reply whose first word could still be `add`, `all` or `Action:` is held until its start decides.
        fc
          .array(fc.constantFrom(...characters), { minLength: 1, maxLength: 120 })
          .filter((drawn) => !/^[aA]/.test(drawn.join('').trimStart())),
        (drawn) => {
          const whole = drawn.join('');
          const scrubber = createStreamScrubber({ tools });
          let shown = '';
          let fed = '';
          for (const character of drawn) {
            shown += scrubber.feed(character).text;
            fed += character;
            // Nothing is held but whitespace at the end (leading whitespace is dropped) and a `>` or a
            // line-start `A` that may still become a `>>>` boundary or an `Action:` line (`readProseMarker`).
            expect(fed.trim().startsWith(shown)).toBe(true);
            const held = fed.trim().slice(shown.length).trimStart();
            if (held !== '') expect(readProseMarker(held, createToolKnowledge(tools))).toBe('undecided');
          }
          expect(shown + scrubber.flush().text).toBe(whole.trim());
        },
      ),
      { numRuns: 100 },
    );
  });

  it('shows the text after an open quotation while the call in it is held, and never the call', () => {
    const text = 'He said "see <tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call> now" and left.';
    const released = releasedPerCharacter(text, { tools });
    const opener = text.indexOf('<tool_call>');
    // The words between the mark and the block are shown before the block arrives.
    expect(released.slice(0, opener).join('')).toBe('He said "see');
    // The quotation closes after the block: quoted markup, shown whole once the mark decides it.
    expect(released.join('')).toBe(text);
  });
});
