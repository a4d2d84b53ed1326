import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';
import type { ParsedCall } from './parse-types.js';

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

function stream(fragments: readonly string[], leadingReasoning = true): { text: string; calls: ParsedCall[] } {
  const scrubber = createStreamScrubber({ tools, leadingReasoning });
  let text = '';
  const calls: ParsedCall[] = [];
  for (const fragment of fragments) {
    const step = scrubber.feed(fragment);
    text += step.text;
    calls.push(...step.calls);
  }
  const last = scrubber.flush();
  return { text: text + last.text, calls: [...calls, ...last.calls] };
}

/** What a reader compares: the narrative, and each call's grammar, name and arguments. */
function shape(result: { text: string; calls: readonly ParsedCall[] }) {
  return {
    text: result.text,
    calls: result.calls.map(({ source, name, arguments: args }) => ({ source, name, args })),
  };
}

const fencedCall = '```tool_call\n{"name": "add", "arguments": {"a": 5}}\n```';
const nestedTagged = '<tool_call>{"name": "add", "arguments": {"note": "<tool_call>nested</tool_call>"}}</tool_call>';
const harmony =
  '<|start|>assistant<|channel|>commentary to=functions.add <|constrain|>json<|message|>{"a":1,"b":2}<|call|>';

describe('a stream releases what one whole feed and the batch parse release', () => {
  it('a region opened on a line a fenced call closes is decided later: every split reads it as the whole text does', () => {
    // The closing run of the ```tool_call fence is followed on its line by `<tool_call>`: the fence
    // tracker opens a protected fence there, inside the fenced call, so it protects nothing. A
    // stream decides that line only after it released the fenced call, and still has to know it.
    const whole = fencedCall + nestedTagged + harmony;
    for (const leadingReasoning of [true, false]) {
      const batch = shape(parseToolCalls(whole, { tools, leadingReasoning }));
      expect(batch.text).toBe('');
      expect(batch.calls.map((call) => call.args)).toEqual([
        { a: 5 },
        { note: '<tool_call>nested</tool_call>' },
        { a: 1, b: 2 },
      ]);
      expect(shape(stream([whole], leadingReasoning))).toEqual(batch);
      expect(shape(stream([...whole], leadingReasoning))).toEqual(batch);
      // Fed a character at a time up to the Harmony call, then the rest at once.
      const cut = fencedCall.length + nestedTagged.length;
      expect(shape(stream([...whole.slice(0, cut), whole.slice(cut)], leadingReasoning))).toEqual(batch);
    }
  });

  it('a call token before `</think>` decides the start for the whole-response reading too', () => {
    // The reasoning tracker's rule: a call token (FunctionGemma, Kimi) before any reasoning token
    // says the text did not start in reasoning, so a later `</think>` is content. The batch parse's
    // reading of the answer after a leading region as bare JSON follows that rule.
    const bare = '{"name": "add", "arguments": {"a": 1}}';
    const cases: Array<[string, ParsedCall['source'], Record<string, unknown>]> = [
      ['<start_function_call>call:add{a:1,b:2}<end_function_call>', 'function_gemma', { a: 1, b: 2 }],
      [
        '<|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{"a": 1, "note": "}>"}<|tool_call_end|>',
        'sentinel',
        { a: 1, note: '}>' },
      ],
    ];
    for (const [call, source, args] of cases) {
      const whole = `${call}</think>${bare}`;
      const batch = shape(parseToolCalls(whole, { tools }));
      expect(batch).toEqual({ text: `</think>${bare}`, calls: [{ source, name: 'add', args }] });
      expect(shape(stream([whole]))).toEqual(batch);
      expect(shape(stream([...whole]))).toEqual(batch);
    }
  });

  it('a leading region without a call token before its closer still has its answer read as bare JSON', () => {
    const bare = '{"name": "add", "arguments": {"a": 1}}';
    for (const reasoning of ['checking</think>', '<think>checking</think>', '  <think>checking</think>']) {
      const whole = reasoning + bare;
      const batch = shape(parseToolCalls(whole, { tools }));
      expect(batch).toEqual({ text: reasoning.trim(), calls: [{ source: 'bare_json', name: 'add', args: { a: 1 } }] });
      expect(shape(stream([whole]))).toEqual(batch);
      expect(shape(stream([...whole]))).toEqual(batch);
    }
  });

  it('a call token inside a region opened at the start ends it: the answer after `</think>` is text', () => {
    const whole =
      '<think>a <start_function_call>call:add{a:1,b:2}<end_function_call></think>{"name": "add", "arguments": {"a": 1}}';
    const batch = shape(parseToolCalls(whole, { tools }));
    expect(batch.calls).toEqual([{ source: 'function_gemma', name: 'add', args: { a: 1, b: 2 } }]);
    expect(batch.text).toContain('</think>{"name": "add"');
    expect(shape(stream([whole]))).toEqual(batch);
    expect(shape(stream([...whole]))).toEqual(batch);
  });

  it('a region opened inside a call protects nothing past the region that protects a block inside it', () => {
    // The fenced call's closing run opens a protected fence (inside the call: void), `<think>` a
    // reasoning region inside that fence. A block after `</think>` is read: the batch parse no
    // longer skips it to the end of the merged span, as the stream never did.
    const whole = `${fencedCall}<think><invoke name="add"><parameter name="note">x } </invoke> </think><invoke name="add"><parameter name="note">x } </invoke> `;
    const batch = shape(parseToolCalls(whole, { tools }));
    expect(batch.text).toBe('<think><invoke name="add"><parameter name="note">x } </invoke> </think>');
    expect(batch.calls.map((call) => call.source)).toEqual(['tagged_json', 'invoke_xml']);
    expect(shape(stream([whole]))).toEqual(batch);
    expect(shape(stream([...whole]))).toEqual(batch);
  });

  it('a quotation that undoes a call a region began inside makes that region protect again', () => {
    // `"` opens a quotation before `<function=add>`; the invoke block runs to the `</tool_call>` in
    // a value, and the `"` after it closes the quotation: the block was quoted markup, so the
    // Harmony analysis channel opened inside it is reasoning, and the `<tool_call>` in it is text.
    const whole =
      '{"a": "<|tool_call_end|> } <function=add>\n<parameter=a>\n1\n</parameter>\n<|channel|>analysis<|message|>thinking } ' +
      nestedTagged +
      '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>';
    for (const leadingReasoning of [true, false]) {
      const batch = shape(parseToolCalls(whole, { tools, leadingReasoning }));
      expect(batch).toEqual({ text: whole, calls: [] });
      expect(shape(stream([whole], leadingReasoning))).toEqual(batch);
      expect(shape(stream([...whole], leadingReasoning))).toEqual(batch);
    }
  });
});
