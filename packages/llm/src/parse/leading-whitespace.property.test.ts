import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { joinNarrativeSpans } from './join-narrative.js';
import { parseToolCalls } from './parse-tool-calls.js';

const tools: ToolSchema[] = [
  { name: 'add', description: 'Add.', parameters: { type: 'object', properties: { a: { type: 'integer' } } } },
];
const call = '{"name":"add","parameters":{"a":1}}';

function stream(text: string, leadingReasoning = true): { text: string; calls: unknown[] } {
  const scrubber = createStreamScrubber({ tools, leadingReasoning });
  const step = scrubber.feed(text);
  const last = scrubber.flush();
  return { text: step.text + last.text, calls: [...step.calls, ...last.calls] };
}

// Shapes from the scrubber-r3 breaker (shift.mjs, shift2.mjs): the prose-JSON reading looked its
// protected regions up at narrative positions, which trimming the leading whitespace had moved.
describe('leading whitespace does not move protected regions', () => {
  const shapes: ReadonlyArray<readonly [string, string, number]> = [
    ['JSON in a ```json example fence', `Example:\n\`\`\`json\n${call}\n\`\`\`\nThat is the format.`, 0],
    ['JSON inside reasoning after prose', `Ok.\n\n<think>plan: ${call}</think> Done.`, 0],
    ['JSON opening a reasoning region', `<think>${call} hmm</think> Answer.`, 0],
    ['a real call after reasoning', `<think>x</think>${call} then text`, 1],
    ['a reply opening with a ```json example', `\`\`\`json\n${call}\n\`\`\`\nThat is the format.`, 0],
    [
      'a reply opening with a ```xml example of a call',
      '```xml\n<tool_call>{"name":"add","arguments":{"a":1}}</tool_call>\n```\nThat is the format.',
      0,
    ],
    [
      // Found by the property below: a fence at offset 0 and the region the prompt opened start together.
      'a fence on the first line of the region the prompt opened',
      '```xml\n<tool_call>{"name":"add","arguments":{"a":3}}</tool_call>\n```\n<tool_call>{"name":"add","arguments":{"a":"</think>"}}</tool_call> then',
      1,
    ],
  ];
  for (const [name, text, count] of shapes) {
    it(`${name}: the same calls and text after 0 to 60 spaces or newlines`, () => {
      const plain = parseToolCalls(text, { tools });
      expect(plain.calls).toHaveLength(count);
      for (const lead of [' ', '\n', '\t', '\u00a0']) {
        for (const times of [1, 10, 12, 30, 40, 60]) {
          const shifted = parseToolCalls(lead.repeat(times) + text, { tools });
          expect(shifted.calls).toEqual(plain.calls);
          expect(shifted.text).toBe(plain.text);
          const streamed = stream(lead.repeat(times) + text);
          expect(streamed.calls).toEqual(plain.calls);
          expect(streamed.text).toBe(plain.text);
        }
      }
    });
  }

  it('maps narrative positions back to the spans they were joined from', () => {
    const source = '  ab  |\n cd |  |ef';
    const joined = joinNarrativeSpans(source, [
      [0, 6],
      [7, 12],
      [13, 15],
      [16, 19],
    ]);
    expect(joined.text).toBe('ab\ncd\nef');
    expect([...joined.text].map((_, index) => joined.sourceAt(index))).toEqual([2, 3, 4, 9, 10, 11, 16, 17]);
  });
});

/** Pieces of replies: calls, reasoning, example and bare fences (a reply may open with one), prose. */
const pieces: readonly string[] = [
  call,
  `<tool_call>{"name":"add","arguments":{"a":2}}</tool_call>`,
  '<think>',
  '</think>',
  `<think>plan ${call}</think>`,
  `\n\`\`\`json\n${call}\n\`\`\`\n`,
  `\n\`\`\`\n${call}\n\`\`\`\n`,
  `\`\`\`json\n${call}\n\`\`\`\n`,
  '```xml\n<tool_call>{"name":"add","arguments":{"a":3}}</tool_call>\n```\n',
  '~~~python\nx = 1\n~~~\n',
  '<tool_call>{"name":"add","arguments":{"a":"</think>"}}</tool_call>',
  '`',
  'Sure: ',
  'words ',
  '\n',
  ' ',
];

const whitespace = fc
  .array(fc.constantFrom(' ', '\n', '\t', '\u00a0', '\r\n'), { minLength: 1, maxLength: 80 })
  .map((chars) => chars.join(''));

describe('prepending whitespace to a reply', () => {
  it('never changes the calls read nor the narrative', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }),
        whitespace,
        fc.boolean(),
        (parts, lead, leadingReasoning) => {
          const text = parts.join('');
          const plain = parseToolCalls(text, { tools, leadingReasoning });
          const shifted = parseToolCalls(lead + text, { tools, leadingReasoning });
          expect(shifted.calls).toEqual(plain.calls);
          expect(shifted.text).toBe(plain.text);
          // Nor what a stream reads (which never takes the whole-response ```xml fence reading).
          const streamed = stream(text, leadingReasoning);
          const shiftedStream = stream(lead + text, leadingReasoning);
          expect(shiftedStream.calls).toEqual(streamed.calls);
          expect(shiftedStream.text).toBe(streamed.text);
        },
      ),
      { numRuns: 400 },
    );
  });
});
