import type { ToolSchema } from '../../spec/tool-schema.js';

/** Repeats `unit` until the result is at least `size` characters, then cuts it to `size`. */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Tools that switch on every grammar, including the seed `xml` and `ptype` forms. */
export const pathologicalTools: ToolSchema[] = [
  {
    name: 'search',
    description: 'Search.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
    format: { type: 'ptype', parameters: ['query', 'limit'] },
  },
  {
    name: 'weather',
    description: 'Weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    format: { type: 'xml' },
  },
  { name: 'lookup', description: 'Lookup.', parameters: { type: 'object', properties: { id: { type: 'integer' } } } },
];

/**
 * Inputs built to make a careless parser go quadratic or backtrack: repeated openers without
 * closers, unclosed nesting and quotes, long attribute lists. Each maps a size to a text.
 */
export const pathologicalInputs: ReadonlyArray<readonly [string, (size: number) => string]> = [
  ['<tool_call> repeated', (size) => repeatTo('<tool_call>', size)],
  ['<tool_call>\\n repeated (doubled openers)', (size) => repeatTo('<tool_call>\n', size)],
  ['<tool_call>x repeated (positional pairs)', (size) => repeatTo('<tool_call>x', size)],
  ['{"a": repeated', (size) => repeatTo('{"a":', size)],
  ['<tool_call>{"a": repeated', (size) => `<tool_call>${repeatTo('{"a":', size - 11)}`],
  ['[[[ repeated inside a tag', (size) => `<tool_call>${repeatTo('[', size - 24)}</tool_call>`],
  ['unclosed quote in a tag', (size) => `<tool_call>{"name":"x","arguments":{"a":"${repeatTo('abc ', size - 50)}`],
  ['" repeated', (size) => repeatTo('"', size)],
  ['<tool_call>{"a":" repeated', (size) => repeatTo('<tool_call>{"a":"', size)],
  ['<tool_call + attribute spaces', (size) => repeatTo(`<tool_call ${' '.repeat(300)}`, size)],
  ['< repeated', (size) => repeatTo('<', size)],
  ['</ repeated', (size) => repeatTo('</', size)],
  ['<| repeated', (size) => repeatTo('<|', size)],
  ['<invoke name="x"> repeated (unclosed)', (size) => repeatTo('<invoke name="x">', size)],
  ['<function= repeated', (size) => repeatTo('<function=', size)],
  ['<tool_calls> wrapper repeated', (size) => repeatTo('<tool_calls> ', size)],
  ['<｜tool▁call▁begin｜> repeated', (size) => repeatTo('<｜tool▁call▁begin｜>', size)],
  ['<|channel|> without message', (size) => repeatTo('<|channel|>commentary to=functions.x ', size)],
  ['<|channel|>…<|message|> without terminator', (size) => repeatTo('<|channel|>commentary to=functions.x<|message|>{', size)],
  ['[TOOL_CALLS] repeated', (size) => repeatTo('[TOOL_CALLS]', size)],
  ['[TOOL_CALLS]a[ARGS]{ repeated', (size) => repeatTo('[TOOL_CALLS]a[ARGS]{', size)],
  ['a[ARGS]{x: repeated after one marker', (size) => `[TOOL_CALLS]${repeatTo('a[ARGS]{x:1}', size - 12)}`],
  ['```json fences repeated', (size) => repeatTo('```json\n', size)],
  ['``` repeated', (size) => repeatTo('`', size)],
  ['```tool_call without close', (size) => repeatTo('```tool_call\n{', size)],
  ['search( repeated (ptype)', (size) => repeatTo(' search(', size)],
  ["search(' repeated (ptype quotes)", (size) => repeatTo(" search('", size)],
  ['<weather> repeated (seed xml)', (size) => repeatTo('<weather>', size)],
  ['GLM lines', (size) => repeatTo('shell/command>ls\n', size)],
  ['JSON-looking prose', (size) => repeatTo('{"name": "x", "input": 1} ', size)],
  ['<function_calls> with code, unclosed, repeated', (size) => repeatTo('<function_calls>lookup(id=7)\n', size)],
  ['backtick runs of growing length', (size) => repeatTo('` `` ``` x <tool_call> ', size)],
  ['</think> repeated', (size) => repeatTo('</think><tool_call>{}', size)],
  ['step3 sentinel + invoke repeated', (size) => repeatTo('<｜tool_call_begin｜><steptml:invoke name="x">', size)],
  ['<tool_call>lookup[ repeated (P-Format head)', (size) => repeatTo('<tool_call>lookup[0|', size)],
  // PARSE-3 grammars: unclosed FunctionGemma strings, Kimi K3 channels, MiniMax M3 namespaces,
  // quoted runs and values full of closers.
  ['FunctionGemma open escape repeated', (size) => repeatTo('<start_function_call>call:lookup{id:<escape>', size)],
  ['FunctionGemma nested braces', (size) => `<start_function_call>call:lookup{a:${repeatTo('{b:', size)}`],
  ['Kimi K3 call openers repeated', (size) => repeatTo('<|open|>tools<|sep|><|open|>call tool="lookup" index="1"<|sep|>', size)],
  ['MiniMax M3 tags repeated', (size) => repeatTo(']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="lookup">]<]minimax[>[<id>', size)],
  ['MiniMax M3 nested tags', (size) => `]<]minimax[>[<invoke name="lookup">${repeatTo(']<]minimax[>[<a>', size)}`],
  ['quoted call runs', (size) => repeatTo('"<tool_call>{"name":"lookup","arguments":{"id":1}}</tool_call>" ', size)],
  ['closers inside a JSON string', (size) => `<|tool_call_begin|>lookup<|tool_call_argument_begin|>{"id": "${repeatTo('<|tool_call_end|>', size)}`],
  ['leading closer inside values', (size) => repeatTo('<tool_call>{"name":"lookup","arguments":{"id":"</think>"}}</tool_call>', size)],
  // Whole-response Functionary readings are not streamed: REPL prompts and unknown recipients only.
  ['>>> prompts and unknown recipients repeated', (size) => repeatTo('>>> x = 1\n>>>nobody\n```\n', size)],
];
