const typographic = /[\u2018\u2019\u201C-\u201F]/;

function isTypographicDouble(code: number): boolean {
  return code >= 0x201c && code <= 0x201f;
}

/** Whether `text` holds any typographic quote (“ ” „ ‟ ‘ ’). @internal */
export function hasTypographicQuotes(text: string): boolean {
  return typographic.test(text);
}

/**
 * Straightens typographic quotes that act as JSON delimiters: “ ” „ ‟ become `"` and ‘ ’ become
 * `'`, but only outside ASCII-quoted string literals. A typographic quote inside a well-formed
 * string is prose and is kept, and inside a string opened by a typographic quote only the closing
 * quote is straightened, so a truncated value is never closed by accident.
 * @internal
 */
export function straightenQuotes(text: string): string {
  const parts: string[] = [];
  const length = text.length;
  let copyFrom = 0;
  let index = 0;
  const replace = (at: number, replacement: string): void => {
    parts.push(text.slice(copyFrom, at), replacement);
    copyFrom = at + 1;
  };
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 34) {
      index++;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === 34) break;
        index += inner === 92 ? 2 : 1;
      }
    } else if (isTypographicDouble(code)) {
      replace(index, '"');
      index++;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === 34) break;
        if (isTypographicDouble(inner)) {
          replace(index, '"');
          break;
        }
        index += inner === 92 ? 2 : 1;
      }
    } else if (code === 0x2018 || code === 0x2019) {
      replace(index, "'");
    }
    index++;
  }
  if (copyFrom === 0) return text;
  parts.push(text.slice(copyFrom));
  return parts.join('');
}
