/**
 * Index just past the `}` or `]` that closes the object or array opening at `start`, or -1 when
 * `text[start]` opens neither or the value never closes. Brackets are counted by depth without
 * checking that their kinds match; `"` strings (with backslash escapes) are skipped, so braces
 * inside string data do not count. Linear in the scanned length.
 * @internal
 */
export function findCompositeEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first !== 123 && first !== 91) return -1;
  const length = text.length;
  let depth = 0;
  let index = start;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 34) {
      index++;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === 34) break;
        index += inner === 92 ? 2 : 1;
      }
      if (index >= length) return -1;
    } else if (code === 123 || code === 91) {
      depth++;
    } else if (code === 125 || code === 93) {
      depth--;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  return -1;
}
