import type { CodeCursor } from './code-cursor.js';

/**
 * @internal Reads a string literal starting at the cursor's quote: `'…'`, `"…"`, `'''…'''`,
 * `"""…"""` or a backtick template without `${}` interpolation. `raw` (a Python `r` prefix) keeps
 * every backslash, and an escaped quote does not end the string.
 *
 * Escapes: `\n \t \r \b \f \v \0`, octal `\ooo`, `\xHH`, `\uHHHH`, `\u{H…}`, `\UHHHHHHHH`, quotes,
 * backslash, and a backslash before a line break (continuation, dropped). Any other backslash is
 * kept with its character, as Python does. Line breaks are allowed in every quote style.
 * Returns `undefined` for an unterminated string, a malformed hex escape, `\N{…}` or interpolation.
 */
export function readCodeString(cursor: CodeCursor, raw: boolean): string | undefined {
  const text = cursor.text;
  const quote = cursor.peek();
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
      const decoded = decodeEscape(text, index + 1);
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

/** Decodes the escape whose letter is at `start` (just after the backslash). */
function decodeEscape(text: string, start: number): { value: string; end: number } | undefined {
  const letter = text[start] ?? '';
  const simple = Object.hasOwn(simpleEscapes, letter) ? simpleEscapes[letter] : undefined;
  if (simple !== undefined) return { value: simple, end: start + 1 };
  if (letter === '\n' || letter === '\u2028' || letter === '\u2029') return { value: '', end: start + 1 };
  if (letter === '\r') return { value: '', end: text[start + 1] === '\n' ? start + 2 : start + 1 };
  if (letter >= '0' && letter <= '7') {
    let end = start + 1;
    while (end < start + 3 && (text[end] ?? '') >= '0' && (text[end] ?? '') <= '7') end++;
    return { value: String.fromCharCode(Number.parseInt(text.slice(start, end), 8)), end };
  }
  if (letter === 'x') return hexEscape(text, start + 1, 2);
  if (letter === 'U') return hexEscape(text, start + 1, 8);
  if (letter === 'u') {
    if (text[start + 1] !== '{') return hexEscape(text, start + 1, 4);
    const close = text.indexOf('}', start + 2);
    if (close < 0 || close - start - 2 > 6) return undefined;
    const decoded = hexEscape(text, start + 2, close - start - 2);
    return decoded === undefined ? undefined : { value: decoded.value, end: close + 1 };
  }
  if (letter === 'N') return undefined;
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
