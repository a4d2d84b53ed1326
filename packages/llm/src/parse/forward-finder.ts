/**
 * @internal Finds the next occurrence of a fixed needle at or after a position, remembering its
 * last answer. Queries that move forward reuse that answer until they pass it, so a scan that asks
 * again and again (one grammar per engine step) still reads each character a bounded number of
 * times.
 */
export interface ForwardFinder {
  /** Index of the next occurrence at or after `from`, or -1. */
  next(from: number): number;
}

/**
 * @internal Creates a {@link ForwardFinder} over `haystack`. A needle such as `<|channel|>` is
 * searched from its second character (a rare `|` or `｜` is much faster to scan for than a
 * frequent `<`) and the `<` is checked afterwards.
 */
export function createForwardFinder(haystack: string, needle: string): ForwardFinder {
  const second = needle.charCodeAt(1);
  if (needle.length > 2 && needle.charCodeAt(0) === 60 && (second === 124 || second === 0xff5c)) {
    const tail = needle.slice(1);
    return memoizeForward((from) => {
      for (let index = haystack.indexOf(tail, from + 1); index >= 0; index = haystack.indexOf(tail, index + 1)) {
        if (haystack.charCodeAt(index - 1) === 60) return index - 1;
      }
      return -1;
    });
  }
  return memoizeForward((from) => haystack.indexOf(needle, from));
}

/**
 * @internal Memoises a forward search `compute(from)` that returns the first match at or after
 * `from` (or -1) and whose answer for `from` also holds for every later `from` up to it.
 */
export function memoizeForward(compute: (from: number) => number): ForwardFinder {
  let lastFrom = -1;
  let lastResult = -2;
  return {
    next(from) {
      if (lastResult !== -2 && from >= lastFrom && (lastResult === -1 || from <= lastResult)) return lastResult;
      lastFrom = from;
      lastResult = compute(from);
      return lastResult;
    },
  };
}
