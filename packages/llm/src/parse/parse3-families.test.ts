import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';

// PARSE-3 families behind their own sources (see __fixtures__/README.md): each is read only when
// its grammar is allowed, a text call the grammar refuses still reaches admission as an invalid
// call, and an unclosed block never runs.
const tools: ToolSchema[] = ['get_weather', 'search'].map((name) => ({
  name,
  description: '',
  parameters: { type: 'object' },
}));
// vLLM functiongemma_tool_parser.py: <start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>
const gemma = '<start_function_call>call:get_weather{city:<escape>Oslo<escape>}<end_function_call>';
// vLLM kimi_k3_tool_parser.py: XTML tools channel with typed arguments
const xtml =
  '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Oslo<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';
// vLLM minimax_m3_tool_parser.py: namespaced structural tags (source invoke_xml)
const m3 =
  ']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Oslo]<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>';

describe('the PARSE-3 grammars', () => {
  it('carry their own sources and obey toolCallFormats', () => {
    for (const [text, source] of [
      [gemma, 'function_gemma'],
      [xtml, 'xtml'],
      [m3, 'invoke_xml'],
    ] as const) {
      expect(parseToolCalls(text, { tools }).calls).toEqual([
        { name: 'get_weather', arguments: { city: 'Oslo' }, source },
      ]);
      const other = parseToolCalls(text, { tools, toolCallFormats: ['harmony'] });
      expect(other.calls).toEqual([]);
      expect(other.text).toBe(text);
    }
  });

  it('hold a partial opener in a stream and release the call once, whole', () => {
    for (const text of [gemma, xtml, m3]) {
      const scrubber = createStreamScrubber({ tools });
      let visible = '';
      const calls = [];
      for (const character of `Sure. ${text} Done.`) {
        const step = scrubber.feed(character);
        visible += step.text;
        calls.push(...step.calls);
      }
      const last = scrubber.flush();
      visible += last.text;
      calls.push(...last.calls);
      expect(calls.map((call) => call.name)).toEqual(['get_weather']);
      expect(visible).toBe('Sure.\nDone.');
    }
  });

  it('report an unclosed Cline-style XML tool block as unterminated: an invalid call that never runs', () => {
    const cline: ToolSchema = {
      name: 'read_file',
      description: '',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      format: { type: 'xml' },
    };
    const result = parseToolCalls("I'll read it.\n<read_file>\n<path>src/a.ts</path>", { tools: [cline] });
    // The call started, so the rest of the text is its content: an invalid call (a repairable tool
    // error), never a run, and never prose.
    expect(result.calls).toEqual([
      expect.objectContaining({
        name: 'read_file',
        source: 'xml_element',
        invalid: expect.stringMatching(/^unterminated/),
      }),
    ]);
    expect(result.text).toBe("I'll read it.");
    expect(result.diagnostics.map((diagnostic) => diagnostic.kind)).toContain('unterminated_block');
  });
});
