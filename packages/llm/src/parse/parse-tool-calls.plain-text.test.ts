import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { parseCompleteText } from './parse-complete-text.js';
import { parseToolCalls } from './parse-tool-calls.js';
import type { CallSource } from './parse-types.js';
import { createToolKnowledge } from './scan-context.js';

const tool = (name: string): ToolSchema => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { code: { type: 'string' } } },
});

// Everything but the characters the parse's fast path looks for: words that name tools and markup
// (`python`, `all`, `functools`, `TOOL_CALLS`, `think`, `Action`), quotes, colons, pipes, the
// full-width and special spaces, line separators.
const pieces = fc.constantFrom(
  'python',
  'add',
  'search',
  'all',
  'functools',
  'TOOL_CALLS',
  'think',
  'tool_call',
  'Action:',
  'START_ACTION',
  'channel',
  '|',
  '｜',
  '▁',
  '＜',
  '"',
  "'",
  '“',
  '«',
  ':',
  '=',
  ',',
  '.',
  '!',
  '#',
  '*',
  '\\',
  '✿',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u2028',
  '\u3000',
  'é',
  '你好',
  '😀',
  '42',
  'x',
);
// Often led by a line naming a tool, the shape Functionary's first recipient reads.
const text = fc
  .tuple(fc.constantFrom('', '', 'python\n', ' python \n', 'all\n', 'add\n'), fc.array(pieces, { maxLength: 30 }))
  .map(([lead, parts]) => lead + parts.join(''));
const tools = fc.subarray(['python', 'add', 'search', 'all', 'functools', 'think'].map(tool));
const formats = fc.option(
  fc.subarray<CallSource>(['tagged_json', 'pythonic', 'mistral', 'glm', 'ptype', 'command_action', 'harmony']),
  { nil: undefined },
);

describe('parseToolCalls on text no grammar can read', () => {
  it('gives what the full parse gives, for any tools and options', () => {
    fc.assert(
      fc.property(
        text,
        tools,
        formats,
        fc.boolean(),
        fc.boolean(),
        (input, offered, toolCallFormats, bare, leading) => {
          const options = { tools: offered, toolCallFormats, allowBareJson: bare, leadingReasoning: leading };
          const knowledge = createToolKnowledge(offered, options);
          const full = parseCompleteText(input, knowledge, { allowBareJson: bare, allowGlmLines: true });
          expect(parseToolCalls(input, options)).toEqual(full);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('still reads the one call such text can hold: a first line naming an offered python tool', () => {
    const parsed = parseToolCalls('python\nx = 1 + 2', { tools: [tool('python')] });
    expect(parsed.calls.map((call) => call.name)).toEqual(['python']);
  });
});
