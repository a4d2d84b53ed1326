function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isSeparator(code: number): boolean {
  return code === 95 || code === 45 || code === 32 || code === 46 || code === 47 || code === 9;
}

/**
 * Normalizes a tool name for comparison: camelCase humps split (`ReadFile` → `read_file`,
 * `HTTPRequest` → `http_request`), lowercased, `-`, space, `.` and `/` turned into `_`, runs of `_`
 * collapsed and `_` trimmed from both ends. Linear; copies runs of the input as slices.
 * @internal
 */
export function normalizeToolName(name: string): string {
  const words: string[] = [];
  let start = 0;
  const closeWord = (end: number): void => {
    if (end > start) words.push(name.slice(start, end));
  };
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (isSeparator(code)) {
      closeWord(index);
      start = index + 1;
    } else if (isUpper(code) && index > start) {
      const previous = name.charCodeAt(index - 1);
      const hump = isLower(previous) || (previous >= 48 && previous <= 57);
      if (hump || (isUpper(previous) && isLower(name.charCodeAt(index + 1)))) {
        closeWord(index);
        start = index;
      }
    }
  }
  closeWord(name.length);
  return words.join('_').toLowerCase();
}
