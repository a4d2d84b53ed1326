import { isWhitespace } from './text-scanning.js';

/**
 * Normalises narrative text for comparison "up to whitespace where call blocks were removed": the
 * text is trimmed and every whitespace run that contains a line break becomes a single `\n`; runs
 * without a line break are kept as they are. Text with blocks removed and re-joined by
 * `joinNarrative`, and the same text streamed with the removed blocks' surrounding spaces and
 * a line break left in, normalise to the same string.
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
