const TAG_NAMES = ['tool_result', 'tool_call'] as const;

/** True for the ASCII whitespace characters a tag name may be followed by. */
function isAsciiWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c || code === 0x0b;
}

/** Compares `word` (lowercase ASCII) with `text` at `index`, ignoring ASCII case only. */
function matchesAsciiWord(text: string, index: number, word: string): boolean {
  if (index + word.length > text.length) return false;
  for (let offset = 0; offset < word.length; offset++) {
    let code = text.charCodeAt(index + offset);
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    if (code !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/**
 * Reads an envelope tag name at `index` (the character after `<`): an optional `/`, then
 * `tool_result` or `tool_call` in any ASCII case, then whitespace, `>`, `/` or the end of `text`.
 * Returns the index just past the name, or -1 when there is no such tag. Reads at most a few
 * characters, so scanning a body with it stays linear.
 *
 * @internal
 */
export function matchEnvelopeTag(text: string, index: number): number {
  let cursor = index;
  if (text.charCodeAt(cursor) === 0x2f) cursor += 1;
  for (const name of TAG_NAMES) {
    if (!matchesAsciiWord(text, cursor, name)) continue;
    const end = cursor + name.length;
    if (end === text.length) return end;
    const next = text.charCodeAt(end);
    if (isAsciiWhitespace(next) || next === 0x3e || next === 0x2f) return end;
  }
  return -1;
}

/**
 * Like {@link matchEnvelopeTag} but only for `tool_result`, and says whether it was a closer.
 *
 * @internal
 */
export function matchToolResultTag(text: string, index: number): { end: number; closing: boolean } | undefined {
  const closing = text.charCodeAt(index) === 0x2f;
  const start = closing ? index + 1 : index;
  if (!matchesAsciiWord(text, start, 'tool_result')) return undefined;
  const end = start + 'tool_result'.length;
  if (end === text.length) return { end, closing };
  const next = text.charCodeAt(end);
  if (isAsciiWhitespace(next) || next === 0x3e || next === 0x2f) return { end, closing };
  return undefined;
}

/** @internal */
export { isAsciiWhitespace };
