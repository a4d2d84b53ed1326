/** @internal The sentinel tokens the grammar reads. */
export type SentinelToken = 'begin' | 'end' | 'wrapper' | 'separator' | 'argument';

/** @internal The text ended inside a token. */
export const PARTIAL_TOKEN = 'partial';

const words: ReadonlyArray<readonly [string, SentinelToken]> = [
  ['call_argument_begin', 'argument'],
  ['calls_section_begin', 'wrapper'],
  ['calls_section_end', 'wrapper'],
  ['calls_begin', 'wrapper'],
  ['calls_end', 'wrapper'],
  // DeepSeek R1's shorter opener `<｜tool▁calls｜>` starts the first call itself (llama.cpp accepts it).
  ['calls', 'begin'],
  ['call_begin', 'begin'],
  ['call_end', 'end'],
  ['sep', 'separator'],
];

/**
 * @internal Reads a chat-template sentinel token at `index` (where `text[index]` is `<`):
 * `<|tool_call_begin|>`, `<|tool_call_end|>`, `<|tool_sep|>`, `<|tool_call_argument_begin|>` and the
 * section wrappers `<|tool_calls_begin|>`, `<|tool_calls_end|>`, `<|tool_calls_section_begin|>`,
 * `<|tool_calls_section_end|>`, and DeepSeek R1's shorter opener `<｜tool▁calls｜>` (a call begin), with ASCII `|` or fullwidth `｜` bars and `_` or `▁` between words,
 * in any combination. Returns the token and the index after it, partial, or `undefined`.
 */
export function matchSentinelToken(
  text: string,
  index: number,
): { readonly token: SentinelToken; readonly end: number } | typeof PARTIAL_TOKEN | undefined {
  const length = text.length;
  let position = index + 1;
  if (position >= length) return PARTIAL_TOKEN;
  if (!isBar(text.charCodeAt(position))) return undefined;
  position++;
  const head = 'tool_';
  for (let offset = 0; offset < head.length; offset++, position++) {
    if (position >= length) return PARTIAL_TOKEN;
    if (!sameLetter(text.charCodeAt(position), head.charCodeAt(offset))) return undefined;
  }
  let partial = false;
  for (const [word, token] of words) {
    let scan = position;
    let matched = true;
    for (let offset = 0; offset < word.length; offset++, scan++) {
      if (scan >= length) {
        partial = true;
        matched = false;
        break;
      }
      if (!sameLetter(text.charCodeAt(scan), word.charCodeAt(offset))) {
        matched = false;
        break;
      }
    }
    if (!matched) continue;
    if (scan >= length) return PARTIAL_TOKEN;
    if (!isBar(text.charCodeAt(scan))) continue;
    if (scan + 1 >= length) return PARTIAL_TOKEN;
    if (text.charCodeAt(scan + 1) !== 62) continue;
    return { token, end: scan + 2 };
  }
  return partial ? PARTIAL_TOKEN : undefined;
}

/** Letters match exactly; `_` in the pattern matches `_` or `▁`. */
function sameLetter(code: number, expected: number): boolean {
  return expected === 95 ? code === 95 || code === 0x2581 : code === expected;
}

function isBar(code: number): boolean {
  return code === 124 || code === 0xff5c;
}
