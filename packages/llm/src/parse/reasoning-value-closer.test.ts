import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';

const tools: ToolSchema[] = [
  { name: 'add', description: 'Add.', parameters: { type: 'object', properties: { a: { type: 'string' } } } },
];

function stream(fragments: readonly string[]): { text: string; calls: unknown[] } {
  const scrubber = createStreamScrubber({ tools });
  let text = '';
  const calls: unknown[] = [];
  for (const fragment of fragments) {
    const step = scrubber.feed(fragment);
    text += step.text;
    calls.push(...step.calls);
  }
  const last = scrubber.flush();
  return { text: text + last.text, calls: [...calls, ...last.calls] };
}

function shape(result: { text: string; calls: readonly unknown[] }): { text: string; calls: unknown[] } {
  return { text: result.text, calls: [...result.calls] };
}

/** Every two-piece split, one character at a time, and the whole text: all must read as the batch does. */
function expectEverySplit(whole: string, batch: { text: string; calls: unknown[] }): void {
  expect(shape(stream([whole]))).toEqual(batch);
  expect(shape(stream([...whole]))).toEqual(batch);
  for (let cut = 0; cut <= whole.length; cut++)
    expect(shape(stream([whole.slice(0, cut), whole.slice(cut)]))).toEqual(batch);
}

// scrubber-r3 breaker think1.mjs: a reply that opens reasoning itself, with `</think>` only inside a
// later call's value. The reasoning tracker pairs the opener with that closer: the reply began the
// region (not the prompt), so the markup in it is reasoning, the block running past the closer
// included. The batch parse read both calls (it treated any region at offset 0 as one the prompt
// opened), the stream released one; neither runs now, with or without leading whitespace.
const tagged = (value: string) => `<tool_call>{"name":"add","arguments":{"a":"${value}"}}</tool_call>`;

describe('a region the reply opens with <think> is reasoning even when a block runs past its closer', () => {
  const invoke = (value: string) => `<invoke name="add"><parameter name="a">${value}</parameter></invoke>`;
  for (const [name, call] of [
    ['tagged', tagged],
    ['invoke', invoke],
  ] as const) {
    it(`${name}: no call runs, the text is the reply, every split agrees`, () => {
      for (const lead of ['', '  ', '\n']) {
        const whole = `${lead}<think>Plan. ${call('x')} then ${call('</think>')} done`;
        const batch = shape(parseToolCalls(whole, { tools }));
        expect(batch).toEqual({ text: whole.trim(), calls: [] });
        expectEverySplit(whole, batch);
      }
    });
  }

  it('the region the prompt opened (a leading closer, no opener) still has its value closer read as content', () => {
    const whole = `Plan. ${tagged('x')} then ${tagged('</think>')} done`;
    const batch = shape(parseToolCalls(whole, { tools }));
    expect(batch.calls).toHaveLength(2);
    expect(batch.text).toBe('Plan.\nthen\ndone');
    expectEverySplit(whole, batch);
  });
});

// scrubber-r3 breaker lead4.mjs: a leading `</think>` inside an invoke value, followed by a `'` and a
// backtick, then two calls and a later `</think>`. The later closer makes everything before it the
// prompt-opened reasoning (scan-text.ts), so no call runs: the batch parse said so, but the stream
// walked the `'` in that reasoning as a prose quotation, held from it, released the region's start and
// then read the calls after it.
describe('reasoning decided up to a later closer is no prose for quotation marks', () => {
  const invoke = (value: string) => `<invoke name="add"><parameter name="a">${value}</parameter></invoke>`;
  for (const mark of ["'`", "'", '"', '`', ' `', '\u2018']) {
    it(`a ${JSON.stringify(mark)} after the leading closer in a value quotes nothing`, () => {
      const whole = `${invoke(`</think>${mark}`)}${tagged('z')}${tagged('y')}</think>`;
      const batch = shape(parseToolCalls(whole, { tools }));
      expect(batch).toEqual({ text: whole, calls: [] });
      expectEverySplit(whole, batch);
    });
  }
});
