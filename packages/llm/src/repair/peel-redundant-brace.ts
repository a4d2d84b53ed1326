import { findCompositeEnd } from './find-composite-end.js';

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** The bounds of `text[start, end)` without surrounding whitespace. @internal */
export function trimBounds(text: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (from < to && isWhitespace(text.charCodeAt(from))) from++;
  while (to > from && isWhitespace(text.charCodeAt(to - 1))) to--;
  return [from, to];
}

/**
 * Peels one redundant outer brace pair off the trimmed span `text[start, end)`: `{{"a":1}}` becomes
 * `{"a":1}`. Applies only when the text inside the outer braces is exactly one complete object.
 * Returns the trimmed bounds of the inner object, or `undefined`. Works on indices, so repeated
 * peels copy nothing.
 * @internal
 */
export function peelRedundantBrace(text: string, start: number, end: number): [number, number] | undefined {
  if (end - start < 4 || text.charCodeAt(start) !== 123 || text.charCodeAt(end - 1) !== 125) return undefined;
  const [from, to] = trimBounds(text, start + 1, end - 1);
  if (text.charCodeAt(from) !== 123) return undefined;
  return findCompositeEnd(text, from) === to ? [from, to] : undefined;
}
