import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';
import type { ParsedCall } from './parse-types.js';

// A started block owns the text to its end (splice-cutoff brief, tester script a3d): a call
// written inside a wrapper that never closes is part of the cut-off wrapper, never a call of its own.

const run = {
  name: 'run',
  description: 'Runs a command.',
  parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
};
const xmlRun: ToolSchema = { ...run, format: { type: 'xml' } };

function streamed(text: string, tools: readonly ToolSchema[], size: number): { text: string; calls: ParsedCall[] } {
  const scrubber = createStreamScrubber({ tools });
  let out = '';
  const calls: ParsedCall[] = [];
  for (let at = 0; at < text.length; at += size) {
    const step = scrubber.feed(text.slice(at, at + size));
    out += step.text;
    calls.push(...step.calls);
  }
  const last = scrubber.flush();
  return { text: out + last.text, calls: [...calls, ...last.calls] };
}

/** Batch and every stream split agree; returns the batch reading. */
function read(text: string, tools: readonly ToolSchema[]) {
  const batch = parseToolCalls(text, { tools });
  for (const size of [1, 3, 7, text.length]) {
    const stream = streamed(text, tools, size);
    expect(stream.calls).toEqual(batch.calls);
    expect(stream.text).toBe(batch.text);
  }
  return batch;
}

describe('an unclosed wrapper owns every call inside it', () => {
  it.each([
    ['<tool_call>', '<tool_call><run><cmd>rm -rf /tmp/build</cmd></run>'],
    ['<tool_call> on its own line', '<tool_call>\n<run><cmd>rm -rf /tmp/build</cmd></run>\n'],
    ['<tool_calls>', '<tool_calls><run><cmd>rm -rf /tmp/build</cmd></run>'],
  ])('%s around a seed XML call: one partial call, never the call inside', (_name, text) => {
    const { calls, text: narrative } = read(text, [xmlRun]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      name: 'run',
      partial: true,
      invalid: 'the call was cut off before its block closed',
    });
    expect(calls[0]?.arguments).toContain('rm -rf /tmp/build');
    expect(narrative).toBe('');
  });

  it('a cut-off JSON call followed by a seed XML call: only the cut-off call, the later block is inside it', () => {
    const { calls } = read('<tool_call>{"name":"run","arguments":{"cmd":"a" <run><cmd>b</cmd></run>', [xmlRun]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'run', partial: true });
  });

  it('a call before the unclosed wrapper is its own, and prose naming the tag with no call stays text', () => {
    const before = read('<run><cmd>ls</cmd></run> then <tool_call>', [xmlRun]);
    expect(before.calls).toEqual([{ name: 'run', arguments: { cmd: 'ls' }, source: 'xml_element' }]);
    const prose = read('Use the <tool_call> tag to call a tool.', [xmlRun]);
    expect(prose).toMatchObject({ calls: [], text: 'Use the <tool_call> tag to call a tool.' });
  });

  it('a closed wrapper still reads its calls', () => {
    const { calls } = read('<tool_call>{"name":"run","arguments":{"cmd":"ls"}}</tool_call>', [run]);
    expect(calls).toEqual([{ name: 'run', arguments: { cmd: 'ls' }, source: 'tagged_json' }]);
  });
});

describe('a Functionary recipient body that opens a code fence and never closes it', () => {
  it('is a partial call even when the JSON inside is whole (the fence owns the text to its end)', () => {
    // A whole-response reading (batch only: a stream scrubber holds no Functionary segments).
    const { calls } = parseToolCalls('>>>run\n```json\n{"cmd":"rm -rf /tmp/build"}\n', { tools: [run] });
    expect(calls).toEqual([
      {
        name: 'run',
        arguments: '```json\n{"cmd":"rm -rf /tmp/build"}',
        source: 'tagged_json',
        invalid: 'the arguments code fence was cut off before it closed',
        partial: true,
      },
    ]);
  });

  it('a closed fence is read', () => {
    const { calls } = parseToolCalls('>>>run\n```json\n{"cmd":"ls"}\n```\n', { tools: [run] });
    expect(calls).toMatchObject([{ name: 'run', arguments: { cmd: 'ls' } }]);
  });
});
