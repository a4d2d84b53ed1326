/** @internal Whether `code` is whitespace as `\s` and `String.prototype.trim` understand it. */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** @internal The first index at or after `index` (and before `end`) that is not whitespace. */
export function skipWhitespace(text: string, index: number, end: number = text.length): number {
  let position = index;
  while (position < end && isWhitespace(text.charCodeAt(position))) position++;
  return position;
}

/** @internal Whether `text[start..end)` is empty or whitespace only. */
export function isBlank(text: string, start: number, end: number): boolean {
  return skipWhitespace(text, start, end) >= end;
}

/**
 * @internal Whether `haystack` from `index` to its end is a non-empty proper prefix of `literal`
 * (the text stopped part-way through it). Pass lowered text and a lowercase literal to fold case.
 */
export function endsInsidePrefix(haystack: string, index: number, literal: string): boolean {
  const rest = haystack.length - index;
  if (rest <= 0 || rest >= literal.length) return false;
  return literal.startsWith(haystack.slice(index));
}

/** @internal ASCII letter, digit or underscore. */
export function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

// ASCII capitals and the Kelvin sign, the one other character the native lowering makes ASCII
// (`K` → `k`) without changing the length: both lowerings agree on every ASCII result, so what
// a search finds does not depend on which one a text (or a piece of it) got.
const upperRun = /[A-Z\u212a]+/g;

/**
 * @internal Lowers letters for case-insensitive search of ASCII needles, keeping every index in
 * place: the fast native lowering when it keeps the length, else ASCII capitals (and the Kelvin
 * sign) only.
 */
export function lowerAscii(text: string): string {
  const lowered = text.toLowerCase();
  return lowered.length === text.length ? lowered : text.replace(upperRun, (run) => run.toLowerCase());
}

/** @internal Whether `text` holds any of `chars`: the shorter of the two is walked, the other searched. */
export function containsAny(text: string, chars: string): boolean {
  if (text.length < chars.length) {
    for (let index = 0; index < text.length; index++) if (chars.includes(text.charAt(index))) return true;
    return false;
  }
  for (let index = 0; index < chars.length; index++) if (text.includes(chars.charAt(index))) return true;
  return false;
}

/** @internal `text` with every regular-expression metacharacter escaped, to match it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
