import { createStreamScrubber, type ParsedCall, parseToolCalls, type ToolSchema } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// PARSE-3, fuzzed through the public API: markup inside a string argument value is content in every
// grammar (nothing in it ends the call or starts another, batch or stream, any split); the same
// call quoted in prose is not a call; a Kimi call's malformed id suffix never changes the tool it
// names, and no parsed call carries an id (the harness mints fresh ones).

const RUNS = Number(process.env.FUZZ_RUNS ?? propertyRuns(120));

const TOOL: ToolSchema = {
  name: 'note',
  description: '',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

const FRAGMENTS = [
  '</tool_call>',
  '<tool_call>',
  '</think>',
  '<think>',
  '</function>',
  '</invoke>',
  '<|tool_call_end|>',
  '<|tool_call_begin|>',
  '<|END_ACTION|>',
  '<|call|>',
  '<end_function_call>',
  '[TOOL_CALLS]',
  '```',
  '"',
  '\\',
  '}',
  'ok',
  ' ',
  '\n',
] as const;

/** One call to `note` with `text` as its value, written as each family's template writes it. */
const WRITERS: Record<string, (text: string) => string> = {
  hermes: (t) => `<tool_call>{"name": "note", "arguments": {"text": ${JSON.stringify(t)}}}</tool_call>`,
  kimi: (t) =>
    `<|tool_calls_section_begin|><|tool_call_begin|>functions.note:0<|tool_call_argument_begin|>{"text": ${JSON.stringify(t)}}<|tool_call_end|><|tool_calls_section_end|>`,
  harmony: (t) =>
    `<|channel|>commentary to=functions.note <|constrain|>json<|message|>{"text": ${JSON.stringify(t)}}<|call|>`,
  mistral: (t) => `[TOOL_CALLS][{"name": "note", "arguments": {"text": ${JSON.stringify(t)}}}]`,
  commandR: (t) =>
    `<|START_ACTION|>[{"tool_name": "note", "parameters": {"text": ${JSON.stringify(t)}}}]<|END_ACTION|>`,
  functionGemma: (t) => `<start_function_call>call:note{text:<escape>${t}<escape>}<end_function_call>`,
  kimiK3: (t) =>
    `<|open|>tools<|sep|><|open|>call tool="note" index="1"<|sep|><|open|>argument key="text" type="string"<|sep|>${t}<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
  minimaxM3: (t) =>
    `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="note">]<]minimax[>[<text>${t}]<]minimax[>[</text>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`,
  glm: (t) => `<tool_call>note<arg_key>text</arg_key><arg_value>${t}</arg_value></tool_call>`,
  minicpm5: (t) => `<function name="note"><param name="text"><![CDATA[${t}]]></param></function>`,
};

const valueArb = fc
  .array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 })
  .map((parts) => `a${parts.join('')}z`);
const familyArb = fc.constantFrom(...Object.keys(WRITERS));

function streamed(text: string, size: number): { calls: ParsedCall[]; text: string } {
  const scrubber = createStreamScrubber({ tools: [TOOL] });
  const calls: ParsedCall[] = [];
  let visible = '';
  for (let index = 0; index < text.length; index += size) {
    const step = scrubber.feed(text.slice(index, index + size));
    calls.push(...step.calls);
    visible += step.text;
  }
  const last = scrubber.flush();
  return { calls: [...calls, ...last.calls], text: visible + last.text };
}

describe('text calls under markup-laden values (public API)', () => {
  it('reads exactly one call with the value whole, in a batch and in a stream of any piece size', () => {
    fc.assert(
      fc.property(familyArb, valueArb, fc.integer({ min: 1, max: 9 }), (family, value, size) => {
        const write = WRITERS[family] ?? WRITERS.hermes;
        const input = `Working on it.\n${write?.(value) ?? ''}`;
        const batch = parseToolCalls(input, { tools: [TOOL] });
        expect(batch.calls.map((call) => [call.name, call.arguments])).toEqual([['note', { text: value }]]);
        expect(batch.text).toBe('Working on it.');
        const stream = streamed(input, size);
        expect(stream.calls).toEqual(batch.calls);
        expect(stream.text).toBe(batch.text);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads no call from markup quoted in prose, and keeps the quote as text', () => {
    fc.assert(
      fc.property(
        familyArb,
        fc.constantFrom(['"', '"'], ['“', '”'], ["'", "'"], ['«', '»']),
        fc.integer({ min: 1, max: 9 }),
        // Text between the call and the closing mark (issue 33: `"<tool_call>…</tool_call>."` ran).
        fc.constantFrom('', '.', ',', ' here', ' and so on!', '…'),
        (family, [open, close], size, tail) => {
          const write = WRITERS[family] ?? WRITERS.hermes;
          const input = `To call it, write ${open}${write?.('plain') ?? ''}${tail}${close} in your reply.`;
          const result = parseToolCalls(input, { tools: [TOOL] });
          expect(result.calls).toEqual([]);
          expect(result.text).toBe(input);
          const stream = streamed(input, size);
          expect(stream.calls).toEqual([]);
          expect(stream.text).toBe(input);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('never lets a malformed Kimi id change the tool, and never returns an id', () => {
    const suffixArb = fc.oneof(
      fc.constantFrom(':0', ':x', ':', ':-1', ':99999999999999999999', '::0', ':0:1', ''),
      fc
        .string({ maxLength: 6 })
        .filter((s) => !/[<|>{}]/.test(s))
        .map((s) => `:${s}`),
    );
    fc.assert(
      fc.property(suffixArb, (suffix) => {
        const input = `<|tool_calls_section_begin|><|tool_call_begin|>functions.note${suffix}<|tool_call_argument_begin|>{"text": "hi"}<|tool_call_end|><|tool_calls_section_end|>`;
        const result = parseToolCalls(input, { tools: [TOOL] });
        for (const call of result.calls) {
          expect(call.name).toBe('note');
          expect(Object.hasOwn(call, 'id')).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
