import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { compareStream } from './__fixtures__/stream-check.js';
import { parseToolCalls } from './parse-tool-calls.js';

// The general rule behind PARSE-3's "markup inside argument values is content": for EVERY grammar,
// a string argument whose value holds another grammar's (or its own) call openers and closers,
// reasoning tokens or sentinels is read whole, as that one value; nothing in it ends the call or
// starts another. Each grammar writes the value the way its template does (JSON-escaped, raw
// element text, FunctionGemma's <escape> tokens, a Python literal); the only fragments left out
// for a grammar are the ones its own format cannot carry at all (the raw closer of the value's own
// element, e.g. `</parameter>` inside a raw `<parameter>` value, which no reader can tell apart).

const RUNS = Number(process.env.PARSE_PROPERTY_RUNS ?? 150);

const FRAGMENTS = [
  '</tool_call>',
  '<tool_call>',
  '</think>',
  '<think>',
  '</function>',
  '<function=t>',
  '</invoke>',
  '<invoke name="t">',
  '</parameter>',
  '</param>',
  '</arg_value>',
  '<arg_key>',
  '<|tool_call_end|>',
  '<|tool_call_begin|>',
  '<|tool_calls_section_end|>',
  '<｜tool▁call▁end｜>',
  '<|END_ACTION|>',
  '<|call|>',
  '<|end|>',
  '[TOOL_CALLS]',
  '<end_function_call>',
  '<start_function_call>',
  '<escape>',
  ']<]minimax[>[',
  ']<]minimax[>[</v>',
  '<|close|>argument<|sep|>',
  '<|close|>call<|sep|>',
  '>>>all\n',
  '```',
  '"',
  "'",
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  'abc',
  ' ',
  '\n',
] as const;

type Fragment = (typeof FRAGMENTS)[number];

interface Spelling {
  /** Where the shape comes from (template or parser file), for the reader of a failure. */
  readonly origin: string;
  /** Fragments this format cannot carry in a raw value. */
  readonly cannot: readonly Fragment[];
  /** Whether leading / trailing whitespace of the value is kept exactly. */
  readonly keepsEdges: boolean;
  /** Whether the shape is read by a stream scrubber (whole-response shapes are not). */
  readonly streams: boolean;
  write(value: string): string;
}

const json = (value: string): string => JSON.stringify(value);

const SPELLINGS: Record<string, Spelling> = {
  hermes: {
    origin: 'Hermes 2 Pro template; vLLM hermes_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) => `<tool_call>\n{"name": "t", "arguments": {"v": ${json(v)}}}\n</tool_call>`,
  },
  claudeInvoke: {
    origin: 'Anthropic function_calls prompt format; llama.cpp chat-parser-xml-toolcall.cpp',
    cannot: ['</parameter>', '</param>'],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<function_calls>\n<invoke name="t">\n<parameter name="v">${v}</parameter>\n</invoke>\n</function_calls>`,
  },
  qwen3Coder: {
    origin: 'Qwen3-Coder chat template; vLLM qwen3coder_tool_parser.py',
    cannot: ['</parameter>', '</param>'],
    keepsEdges: true,
    streams: true,
    write: (v) => `<tool_call>\n<function=t>\n<parameter=v>\n${v}\n</parameter>\n</function>\n</tool_call>`,
  },
  glmLing: {
    origin: 'GLM-4.7 / Ling 3 chat templates; vLLM parser/ling3.py (GLM-4.7 engine)',
    cannot: ['</arg_value>'],
    keepsEdges: true,
    streams: true,
    write: (v) => `<tool_call>t<arg_key>v</arg_key><arg_value>${v}</arg_value></tool_call>`,
  },
  minicpm5: {
    origin: 'vLLM minicpm5xml_tool_parser.py (CDATA-protected values)',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<function name="t"><param name="v"><![CDATA[${v.replaceAll(']]>', ']]]]><![CDATA[>')}]]></param></function>`,
  },
  kimiK2: {
    origin: 'Kimi K2 chat template; vLLM kimi_k2_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<|tool_calls_section_begin|><|tool_call_begin|>functions.t:0<|tool_call_argument_begin|>{"v": ${json(v)}}<|tool_call_end|><|tool_calls_section_end|>`,
  },
  deepseekV3: {
    origin: 'DeepSeek V3.1 template; vLLM deepseekv31_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>t<｜tool▁sep｜>{"v": ${json(v)}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
  },
  harmony: {
    origin: 'gpt-oss Harmony format; vLLM openai_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<|start|>assistant<|channel|>commentary to=functions.t <|constrain|>json<|message|>{"v": ${json(v)}}<|call|>`,
  },
  mistral: {
    origin: 'Mistral v3 tokenizer format; vLLM mistral_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) => `[TOOL_CALLS][{"name": "t", "arguments": {"v": ${json(v)}}}]`,
  },
  commandR: {
    origin: 'Command R7B template; vLLM cohere_command_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "t", "parameters": {"v": ${json(v)}}}]<|END_ACTION|>`,
  },
  functionGemma: {
    origin: 'FunctionGemma chat template; vLLM functiongemma_tool_parser.py',
    cannot: ['<escape>'],
    keepsEdges: true,
    streams: true,
    write: (v) => `<start_function_call>call:t{v:<escape>${v}<escape>}<end_function_call>`,
  },
  kimiK3: {
    origin: 'vLLM kimi_k3_tool_parser.py (string values raw; its documented limit is the argument closer)',
    cannot: ['<|close|>argument<|sep|>'],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `<|open|>tools<|sep|><|open|>call tool="t" index="1"<|sep|><|open|>argument key="v" type="string"<|sep|>${v}<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
  },
  minimaxM3: {
    origin: 'vLLM minimax_m3_tool_parser.py (namespaced structural tags)',
    cannot: [']<]minimax[>[', ']<]minimax[>[</v>'],
    keepsEdges: true,
    streams: true,
    write: (v) =>
      `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="t">]<]minimax[>[<v>${v}]<]minimax[>[</v>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`,
  },
  functionary: {
    origin: 'Functionary v3.2 template; llama.cpp functionary v3.2 reader',
    cannot: [],
    keepsEdges: true,
    streams: false,
    write: (v) => `>>>t\n{"v": ${json(v)}}`,
  },
  pythonic: {
    origin: 'Llama 4 pythonic format; vLLM pythonic_tool_parser.py',
    cannot: [],
    keepsEdges: true,
    streams: true,
    write: (v) => `<|python_start|>[t(v=${json(v)})]<|python_end|>`,
  },
};

const TOOL: ToolSchema = {
  name: 't',
  description: '',
  parameters: { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] },
};

function valueArb(spelling: Spelling): fc.Arbitrary<string> {
  const allowed = FRAGMENTS.filter((fragment) => !spelling.cannot.includes(fragment));
  // Mixed fragments, or one fragment repeated past any fixed scan limit (issue 33: a closer written
  // nine or more times inside a JSON string was once read as the end of the call).
  const mixed = fc.array(fc.constantFrom(...allowed), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
  const repeated = fc
    .tuple(fc.constantFrom(...allowed), fc.integer({ min: 9, max: 24 }), fc.constantFrom(...allowed))
    .map(([fragment, times, tail]) => fragment.repeat(times) + tail);
  return fc
    .oneof(mixed, repeated)
    .map((inner) => `x${inner}y`)
    .filter((value) => spelling.cannot.every((fragment) => !value.includes(fragment)));
}

describe('markup inside a string argument value is content, in every grammar', () => {
  for (const [family, spelling] of Object.entries(SPELLINGS)) {
    it(`${family} (${spelling.origin})`, () => {
      fc.assert(
        fc.property(valueArb(spelling), fc.constantFrom('', 'Sure.\n'), (value, before) => {
          const input = `${before}${spelling.write(value)}`;
          const result = parseToolCalls(input, { tools: [TOOL] });
          expect(result.calls).toEqual([{ name: 't', arguments: { v: value }, source: result.calls[0]?.source }]);
          expect(result.text).toBe(before.trim());
          if (spelling.streams) {
            const size = 1 + (value.length % 7);
            const fragments: string[] = [];
            for (let index = 0; index < input.length; index += size) fragments.push(input.slice(index, index + size));
            const streamed = compareStream(fragments, [TOOL]);
            expect(streamed.streamedCalls).toEqual(result.calls);
            expect(streamed.streamedText).toBe(result.text);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
