import { describe, expect, it } from 'vitest';
import { createStreamScrubber } from '../create-stream-scrubber.js';
import type { CallSource } from '../parse-types.js';
import { createScanContext, createToolKnowledge } from '../scan-context.js';
import { createGrammars } from './create-grammars.js';
import { openerPrefixStart } from './opener-prefix.js';

const tools = [
  { name: 'get', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
];

/**
 * Each grammar alone (`toolCallFormats` of one source), its openers, and one complete block that
 * starts with the first opener. The blocks follow the repro of the scrubber break where a lone `<`
 * was shown early under `['command_action']` and `['xtml']` (tester's lone.test.ts).
 */
const grammars: ReadonlyArray<readonly [CallSource, readonly string[], string]> = [
  [
    'command_action',
    ['<|START_ACTION|>'],
    '<|START_ACTION|>[{"tool_name": "get", "parameters": {"city": "B"}}]<|END_ACTION|>',
  ],
  [
    'xtml',
    ['<|open|>', '<|close|>'],
    '<|open|>tools<|sep|><|open|>call tool="get" index="0"<|sep|><|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>',
  ],
  [
    'harmony',
    ['<|start|>', '<|channel|>'],
    '<|start|>assistant<|channel|>commentary to=functions.get <|constrain|>json<|message|>{"city":"A"}<|call|>',
  ],
  [
    'sentinel',
    ['<|tool_calls_section_begin|>', '<|tool_call_begin|>', '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>'],
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
  ],
  [
    'function_gemma',
    ['<start_function_call>'],
    '<start_function_call>call:get{city:<escape>Paris<escape>}<end_function_call>',
  ],
  [
    'invoke_xml',
    ['<function_calls>', '<invoke name=', ']<]minimax[>['],
    '<function_calls><invoke name="get"><parameter name="city">P</parameter></invoke></function_calls>',
  ],
  ['pythonic', ['<|tool_call_start|>', '<|python_start|>'], '<|tool_call_start|>[get(city="D")]<|tool_call_end|>'],
  [
    'tagged_json',
    ['<tool_call>', '<|tools_prefix|>'],
    '<tool_call>{"name": "get", "arguments": {"city": "Rome"}}</tool_call>',
  ],
  ['mistral', ['[TOOL_CALLS]'], '[TOOL_CALLS]get[ARGS]{"city": "X"}'],
];

describe('openerPrefixStart', () => {
  it('returns the start of the longest tail that is a proper prefix of an opener', () => {
    expect(openerPrefixStart('Hi <', 0, ['<|START_ACTION|>'])).toBe(3);
    expect(openerPrefixStart('a <|open', 0, ['<|open|>', '<|close|>'])).toBe(2);
    expect(openerPrefixStart('x <<|o', 0, ['<|open|>'])).toBe(3);
    expect(openerPrefixStart('<|open|>', 0, ['<|open|>'])).toBe(-1);
    expect(openerPrefixStart('Hi <', 4, ['<|START_ACTION|>'])).toBe(-1);
    expect(openerPrefixStart('Hi', 0, ['<|START_ACTION|>'])).toBe(-1);
    // The longest tail wins when openers overlap.
    expect(openerPrefixStart('ab', 0, ['b', 'abc', 'bcd'])).toBe(0);
  });
});

describe('each grammar alone holds every prefix of its openers', () => {
  for (const [source, openers, block] of grammars) {
    it(`${source}: its holdFrom`, () => {
      const knowledge = createToolKnowledge(tools, { toolCallFormats: [source] });
      for (const opener of openers) {
        for (let cut = 1; cut < opener.length; cut++) {
          const text = `Hi ${opener.slice(0, cut)}`;
          const holds = createGrammars(createScanContext(text, 'stream', knowledge, -1))
            .map((grammar) => grammar.holdFrom(0))
            .filter((hold) => hold >= 0);
          expect(Math.min(...holds), `${source} ${JSON.stringify(text)}`).toBe(3);
        }
      }
    });

    it(`${source}: the stream scrubber`, () => {
      for (const opener of openers) {
        for (let cut = 1; cut < opener.length; cut++) {
          for (const before of ['', 'Hi ', 'Hi\n']) {
            const scrubber = createStreamScrubber({ tools, toolCallFormats: [source], leadingReasoning: false });
            const shown = scrubber.feed(before + opener.slice(0, cut)).text;
            expect(before.startsWith(shown), `${source} ${JSON.stringify(before + opener.slice(0, cut))}`).toBe(true);
          }
        }
      }
      // The call whose first character arrived alone is read, and none of its markup is shown.
      const [first] = openers;
      if (first === undefined || !block.startsWith(first)) return;
      for (const cut of [1, 2, 3]) {
        const scrubber = createStreamScrubber({ tools, toolCallFormats: [source], leadingReasoning: false });
        const a = scrubber.feed(`Hi ${block.slice(0, cut)}`);
        const b = scrubber.feed(block.slice(cut));
        const c = scrubber.flush();
        expect(a.text + b.text + c.text).toBe('Hi');
        expect([...a.calls, ...b.calls, ...c.calls].map((call) => call.name)).toEqual(['get']);
      }
    });
  }
});
