import { isWhitespace } from './text-scanning.js';

/**
 * Normalises narrative text so that two texts differing only in whitespace where call blocks were
 * removed compare equal: the ends are trimmed and every whitespace run that contains a line break
 * becomes one `\n` (runs without a line break are kept as they are).
 *
 * `parseToolCalls` joins the pieces around a removed block with `\n`; a stream consumer that shows
 * the pieces as they arrived, with a line break where a block was removed, normalises to the same
 * string. (The scrubber from `createStreamScrubber` is stricter: its concatenated output already
 * equals `parseToolCalls(text).text` character for character.)
 */
export function normalizeNarrative(text: string): string {
  const pieces: string[] = [];
  let index = 0;
  const length = text.length;
  while (index < length) {
    if (!isWhitespace(text.charCodeAt(index))) {
      const start = index;
      while (index < length && !isWhitespace(text.charCodeAt(index))) index++;
      pieces.push(text.slice(start, index));
      continue;
    }
    const start = index;
    let breaks = false;
    while (index < length && isWhitespace(text.charCodeAt(index))) {
      const code = text.charCodeAt(index);
      if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) breaks = true;
      index++;
    }
    if (start === 0 || index >= length) continue;
    pieces.push(breaks ? '\n' : text.slice(start, index));
  }
  return pieces.join('');
}
