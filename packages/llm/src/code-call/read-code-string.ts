import type { CodeCursor } from './code-cursor.js';

/** @internal Whose string escapes apply; `undefined` accepts the union (the dialect is not known). */
export type CodeLanguage = 'python' | 'typescript' | undefined;

/**
 * @internal Reads a string literal starting at the cursor's quote: `'…'`, `"…"`, `'''…'''`,
 * `"""…"""` or a backtick template without `${}` interpolation. `raw` (a Python `r` prefix) keeps
 * every backslash, and an escaped quote does not end the string.
 *
 * Escapes, exactly as `language` defines them:
 * - Python: `\n \t \r \b \f \v \a`, octal `\ooo` (one to three digits), `\xHH`, `\uHHHH`,
 *   `\UHHHHHHHH`, quotes, backslash, line continuation; any other backslash is kept with its
 *   character (`"\q"` is two characters), and `\N{…}` is refused. Backticks are not quotes.
 * - TypeScript: `\n \t \r \b \f \v`, `\0` (not before a digit), `\xHH`, `\uHHHH`, `\u{H…}`, quotes,
 *   backslash, line continuation; any other escaped character stands for itself (`"\q"` is `q`);
 *   legacy octal (`\1`, `\01`) is refused, as strict mode does.
 * - Unknown (`undefined`): the union, an unknown escape keeping its backslash.
 * Line breaks are allowed in every quote style. Returns `undefined` for an unterminated string, a
 * malformed or refused escape, or interpolation.
 */
export function readCodeString(cursor: CodeCursor, raw: boolean, language?: CodeLanguage): string | undefined {
  const text = cursor.text;
  const quote = cursor.peek();
  if (quote === '`' && language === 'python') return undefined;
  const triple = quote !== '`' && cursor.peek(1) === quote && cursor.peek(2) === quote;
  const delimiter = triple ? quote.repeat(3) : quote;
  let index = cursor.position + delimiter.length;
  let runStart = index;
  const chunks: string[] = [];
  while (index < text.length) {
    const character = text[index];
    if (character === quote && text.startsWith(delimiter, index)) {
      chunks.push(text.slice(runStart, index));
      cursor.position = index + delimiter.length;
      return chunks.join('');
    }
    if (quote === '`' && character === '$' && text[index + 1] === '{') return undefined;
    if (character !== '\\') {
      index++;
      continue;
    }
    chunks.push(text.slice(runStart, index));
    if (index + 1 >= text.length) return undefined;
    if (raw) {
      chunks.push(text.slice(index, index + 2));
      index += 2;
    } else if (quote === '`' && text[index + 1] === '$') {
      chunks.push('$');
      index += 2;
    } else {
      const decoded = decodeEscape(text, index + 1, language);
      if (decoded === undefined) return undefined;
      chunks.push(decoded.value);
      index = decoded.end;
    }
    runStart = index;
  }
  return undefined;
}

const simpleEscapes: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
};

/** Decodes the escape whose letter is at `start` (just after the backslash), as `language` does. */
function decodeEscape(text: string, start: number, language: CodeLanguage): { value: string; end: number } | undefined {
  const letter = text[start] ?? '';
  const python = language === 'python';
  const typescript = language === 'typescript';
  const known = Object.hasOwn(simpleEscapes, letter) && !(python && letter === '`');
  const simple = known ? simpleEscapes[letter] : undefined;
  if (simple !== undefined) return { value: simple, end: start + 1 };
  if (letter === 'a' && python) return { value: '\u0007', end: start + 1 };
  if (letter === '\n' || (!python && (letter === '\u2028' || letter === '\u2029')))
    return { value: '', end: start + 1 };
  if (letter === '\r') return { value: '', end: text[start + 1] === '\n' ? start + 2 : start + 1 };
  if (typescript && letter >= '0' && letter <= '9') {
    // `\0` alone is NUL; any other digit escape is legacy octal, a syntax error in strict code.
    const next = text[start + 1] ?? '';
    return letter === '0' && !(next >= '0' && next <= '9') ? { value: '\0', end: start + 1 } : undefined;
  }
  if (letter >= '0' && letter <= '7') {
    let end = start + 1;
    while (end < start + 3 && (text[end] ?? '') >= '0' && (text[end] ?? '') <= '7') end++;
    return { value: String.fromCharCode(Number.parseInt(text.slice(start, end), 8)), end };
  }
  if (letter === 'x') return hexEscape(text, start + 1, 2);
  if (letter === 'U' && !typescript) return hexEscape(text, start + 1, 8);
  if (letter === 'u') {
    if (text[start + 1] !== '{' || python) return hexEscape(text, start + 1, 4);
    const close = text.indexOf('}', start + 2);
    if (close < 0 || close - start - 2 > 6) return undefined;
    const decoded = hexEscape(text, start + 2, close - start - 2);
    return decoded === undefined ? undefined : { value: decoded.value, end: close + 1 };
  }
  if (letter === 'N' && !typescript) return undefined;
  if (typescript) {
    // Any other escaped character stands for itself (a surrogate pair stays whole).
    const width = (text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
    return { value: text.slice(start, start + width), end: start + width };
  }
  return { value: `\\${letter}`, end: start + 1 };
}

function hexEscape(text: string, start: number, length: number): { value: string; end: number } | undefined {
  if (length === 0) return undefined;
  const digits = text.slice(start, start + length);
  if (digits.length !== length) return undefined;
  for (const digit of digits) {
    const hex = (digit >= '0' && digit <= '9') || (digit >= 'a' && digit <= 'f') || (digit >= 'A' && digit <= 'F');
    if (!hex) return undefined;
  }
  const code = Number.parseInt(digits, 16);
  if (code > 0x10ffff) return undefined;
  return {
    value: length === 4 || length === 2 ? String.fromCharCode(code) : String.fromCodePoint(code),
    end: start + length,
  };
}
