import { isWhitespace } from './text-scanning.js';

/**
 * Joins narrative parts the way the parser does: each part trimmed, empty parts dropped, the rest
 * joined with a newline. Both `parseToolCalls` and the stream scrubber produce exactly this text.
 */
export function joinNarrative(parts: readonly string[]): string {
  const kept: string[] = [];
  for (const part of parts) {
    const trimmed = part.trim();
    if (trimmed !== '') kept.push(trimmed);
  }
  return kept.join('\n');
}

/**
 * Normalises narrative text for comparison "up to whitespace where call blocks were removed": the
 * text is trimmed and every whitespace run that contains a line break becomes a single `\n`; runs
 * without a line break are kept as they are. Text with blocks removed and re-joined by
 * {@link joinNarrative}, and the same text streamed with the removed blocks' surrounding spaces and
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
