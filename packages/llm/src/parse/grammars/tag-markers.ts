import { endsInsidePrefix, isWhitespace } from '../text-scanning.js';

/** @internal No match. */
export const NO_MATCH = -1;
/** @internal The text ended before a match could be decided. */
export const PARTIAL = -2;

const MAX_PIPES = 16;
const MAX_ATTRIBUTES = 256;

/**
 * @internal Matches a `<tool_call>`-family marker at `index` (where `text[index]` is `<`) and
 * returns the index just past it, {@link NO_MATCH} or {@link PARTIAL}. Accepted: `<`, then pipes,
 * slashes or whitespace, then `tool_call` / `toolcall` / `tool-call`, the plural `tool_calls`
 * (MiniMax M1, Hunyuan) and `tools`, or `function_call` (any case, so `<TOOL_CALL>` too), then either
 * pipes, slashes or whitespace up to `>`, or whitespace and an attribute list up to `>` (at most 256
 * characters, no `<`). The name must end there, so `<tool_callable>` is not a marker, and neither is
 * a tag with no `>`.
 */
export function matchTagMarker(lower: string, index: number): number {
  const length = lower.length;
  let position = index + 1;
  let pipes = 0;
  while (position < length && pipes <= MAX_PIPES) {
    const code = lower.charCodeAt(position);
    if (code !== 124 && code !== 47 && !isWhitespace(code)) break;
    position++;
    pipes++;
  }
  if (pipes > MAX_PIPES) return NO_MATCH;
  if (position >= length) return PARTIAL;
  const name = matchName(lower, position);
  if (name < 0) return name;
  position = name;
  if (position >= length) return PARTIAL;
  const first = lower.charCodeAt(position);
  if (first === 62) return position + 1;
  if (isWhitespace(first)) {
    const limit = Math.min(length, position + MAX_ATTRIBUTES + 1);
    for (let scan = position + 1; scan < limit; scan++) {
      const code = lower.charCodeAt(scan);
      if (code === 62) return scan + 1;
      if (code === 60) return NO_MATCH;
    }
    return limit >= length ? PARTIAL : NO_MATCH;
  }
  if (first !== 124 && first !== 47) return NO_MATCH;
  for (let scan = position, count = 0; scan < length && count <= MAX_PIPES; scan++, count++) {
    const code = lower.charCodeAt(scan);
    if (code === 62) return scan + 1;
    if (code !== 124 && code !== 47 && !isWhitespace(code)) return NO_MATCH;
    if (scan === length - 1) return PARTIAL;
  }
  return NO_MATCH;
}

// Longest first: `tool_calls` is not read as `tool_call` followed by junk.
const names = ['function_call', 'tool_calls', 'tool_call', 'toolcall', 'tool-call', 'tools'];

/** The index after the name at `position`, {@link NO_MATCH}, or {@link PARTIAL} when the text ends inside one. */
function matchName(lower: string, position: number): number {
  // Matched by hand, with one comparison of `tool` (or `function_call`) and one of `call`: every
  // `<` in a text is asked about, and this runs at twice the speed of a `startsWith` per name.
  const first = lower.charCodeAt(position);
  if (first === 116) {
    if (writesAt(lower, position, 'tool')) {
      const separator = lower.charCodeAt(position + 4);
      if (separator === 115) return position + 5; // tools
      // toolcall, tool_call(s), tool-call
      const call = separator === 99 ? position + 4 : separator === 95 || separator === 45 ? position + 5 : -1;
      if (call >= 0 && writesAt(lower, call, 'call')) {
        return separator === 95 && lower.charCodeAt(call + 4) === 115 ? call + 5 : call + 4;
      }
    }
  } else if (first === 102) {
    if (writesAt(lower, position, 'function_call')) return position + 13;
  } else return NO_MATCH;
  for (const name of names) {
    if (endsInsidePrefix(lower, position, name)) return PARTIAL;
  }
  return NO_MATCH;
}

/** Whether `text` has `word` at `position`. */
function writesAt(text: string, position: number, word: string): boolean {
  const length = word.length;
  if (position + length > text.length) return false;
  for (let offset = 0; offset < length; offset++) {
    if (text.charCodeAt(position + offset) !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/** @internal Whether the marker at `index` is a closer: a `/` before the name (`</tool_call>`, `<|/tool_call|>`). */
export function isClosingMarker(lower: string, index: number): boolean {
  let position = index + 1;
  while (position < lower.length) {
    const code = lower.charCodeAt(position);
    if (code === 47) return true;
    if (code !== 124 && !isWhitespace(code)) return false;
    position++;
  }
  return false;
}

/** @internal Languages of a fenced block that holds a call rather than an example. */
export const callFenceOpeners: readonly string[] = [
  '```tool_calls',
  '```tool_call',
  '```toolcall',
  '```tool-call',
  '```tool_code',
  '```invoke',
];

/**
 * @internal Matches a call fence opener (```` ```tool_call ```` and friends, any case) at `index`:
 * the language, optional spaces or tabs, then a line break. Returns the index where the body starts
 * (after the line break), {@link NO_MATCH} or {@link PARTIAL}.
 */
export function matchCallFence(lower: string, index: number): number {
  for (const opener of callFenceOpeners) {
    if (!lower.startsWith(opener, index)) continue;
    let position = index + opener.length;
    while (position < lower.length) {
      const code = lower.charCodeAt(position);
      if (code === 32 || code === 9 || code === 13) {
        position++;
        continue;
      }
      if (code === 10) return position + 1;
      break;
    }
    if (position >= lower.length) return PARTIAL;
  }
  for (const opener of callFenceOpeners) {
    if (endsInsidePrefix(lower, index, opener)) return PARTIAL;
  }
  return NO_MATCH;
}
