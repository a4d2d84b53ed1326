import fc from 'fast-check';

/** Tokens models and adversaries put into responses: openers, closers, JSON pieces, prose. */
export const grammarTokens: readonly string[] = [
  '<tool_call>',
  '</tool_call>',
  '<tool_call id="c1">',
  '<|tool_call>',
  '<tool_call|>',
  '<|tool_call|>',
  '<toolcall>',
  '</toolcall>',
  '<tool-call>',
  '<tool_calls>',
  '</tool_calls>',
  '<tool_callable>',
  '<tool_ca',
  '<',
  '>',
  '</',
  '<invoke>',
  '</invoke>',
  '<invoke name="lookup">',
  '<invoke name="">',
  '<parameter name="id">',
  '</parameter>',
  '<function=lookup>',
  '<parameter=id>',
  '</function>',
  '<function_calls>',
  '</function_calls>',
  '<｜DSML｜invoke name="lookup">',
  '</｜DSML｜invoke>',
  '<｜DSML｜tool_calls>',
  '<atem:invoke name="lookup">',
  '<｜tool▁calls▁begin｜>',
  '<｜tool▁call▁begin｜>',
  '<｜tool▁sep｜>',
  '<｜tool▁call▁end｜>',
  '<|tool_call_begin|>',
  '<|tool_call_argument_begin|>',
  '<|tool_call_end|>',
  '<|tool_calls_section_begin|>',
  '<|channel|>',
  'commentary to=functions.lookup ',
  'analysis',
  '<|constrain|>json',
  '<|message|>',
  '<|call|>',
  '<|end|>',
  '<|start|>assistant',
  '[TOOL_CALLS]',
  '[TOOL_CALLS][{"name":"lookup","arguments":{"id":7}}]',
  'lookup[ARGS]',
  'lookup[ARGS]{id: 7,}',
  '{id: 7}',
  "{'id': 7}",
  '<|channel|>commentary to=functions.lookup<|message|>{id: 7}<|call|>',
  '[ARGS]',
  '[CALL_ID]',
  '```',
  '```json\n',
  '```python\n',
  '```tool_call\n',
  '~~~\n',
  '\n```\n',
  'call:',
  '<|"|>',
  'lookup{id:<|"|>7<|"|>}',
  'functions.lookup:0',
  'function',
  'lookup',
  'search',
  'search(',
  'search("x", 5)',
  ')',
  '<weather>',
  '</weather>',
  '<city>Oslo</city>',
  'shell/command>ls',
  '{"name":"lookup","arguments":{"id":7}}',
  '{"name":"Alice","input":"hi"}',
  '{"name":',
  '"lookup"',
  '"arguments":',
  '{"id":7}',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  ',',
  ':',
  '\\',
  'True',
  'None',
  '{name: "lookup", arguments: {id: 7,},}',
  'lookup[0|x]',
  'The answer is 42.',
  'Sure, ',
  'café ☕ 你好',
  '𝒳',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\t',
  '\r\n',
];

/** Text built from {@link grammarTokens} and short random strings. */
export const grammarText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...grammarTokens) }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), {
    maxLength: 40,
  })
  .map((pieces) => pieces.join(''));

/** Any UTF-16 string, lone surrogates included. */
export const utf16Text: fc.Arbitrary<string> = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 60 })
  .map((codes) => String.fromCharCode(...codes));

/** Splits `text` at the given cut points (taken modulo its length, sorted, deduplicated). */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  if (text.length === 0) return [text];
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  const fragments: string[] = [];
  let previous = 0;
  for (const point of points) {
    fragments.push(text.slice(previous, point));
    previous = point;
  }
  fragments.push(text.slice(previous));
  return fragments;
}
