import { parseJson } from './parse-json.js';

/** Trailing characters dropped at most while looking for a closable prefix. */
const MAX_DROPPED = 64;
/** Deeper than this is no answer to close (and closing 10^6 levels would cost seconds, not a repair). */
const MAX_OWED = 512;

interface ScanState {
  stack: number[];
  inString: boolean;
  escaped: boolean;
}

/** Advances `state` over `text[from, to)`; returns false on a stray or mismatched closer. */
function advance(text: string, from: number, to: number, state: ScanState): boolean {
  const { stack } = state;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (state.inString) {
      if (state.escaped) state.escaped = false;
      else if (code === 92) state.escaped = true;
      else if (code === 34) state.inString = false;
    } else if (code === 34) {
      state.inString = true;
    } else if (code === 123 || code === 91) {
      stack.push(code === 123 ? 125 : 93);
    } else if (code === 125 || code === 93) {
      if (stack.pop() !== code) return false;
    }
  }
  return true;
}

/**
 * The `closed` rung of the structured-output ladder: starting at the first `{` or `[`, closes an
 * open string with `"`, then appends the closers still owed. When that does not parse, drops
 * trailing characters one at a time (at most 64) and closes again. A stray or mismatched closer
 * anywhere refuses, and so does text that owes nothing (it is complete, just invalid), or more
 * than 512 closers (nesting no real answer has; closing it would take seconds on 1 MB).
 * Returns the parsed value, or `undefined`. With `keepTrailingSpace`, whitespace at the end of
 * the text stays (inside a cut string it is content).
 * @internal
 */
export function closeTruncatedJson(text: string, options: { readonly keepTrailingSpace?: boolean } = {}): unknown {
  const brace = text.indexOf('{');
  const bracket = text.indexOf('[');
  const start = brace < 0 ? bracket : bracket < 0 ? brace : Math.min(brace, bracket);
  if (start < 0) return undefined;
  // `keepTrailingSpace`: a string cut after spaces keeps them (they are part of the string).
  const body = options.keepTrailingSpace === true ? text.slice(start) : text.slice(start).trimEnd();
  const checkpoint = Math.max(0, body.length - MAX_DROPPED);
  const base: ScanState = { stack: [], inString: false, escaped: false };
  if (!advance(body, 0, checkpoint, base)) return undefined;
  const full: ScanState = { ...base, stack: [...base.stack] };
  if (!advance(body, checkpoint, body.length, full)) return undefined;
  // Complete but invalid text (`{'a':'b'}`) is not truncated; cutting it down would only lose data.
  if (!full.inString && full.stack.length === 0) return undefined;
  if (full.stack.length > MAX_OWED) return undefined;
  // Closers owed by the part before the checkpoint, innermost first, built once.
  const baseClosers = base.stack
    .map((code) => (code === 125 ? '}' : ']'))
    .reverse()
    .join('');
  for (let end = body.length; end >= checkpoint; end--) {
    const tail = scanTail(body, checkpoint, end, base);
    if (tail === undefined) continue;
    // A prefix ending in `,` or `:` (outside a string) can never be closed into valid JSON.
    if (!tail.inString && endsWithSeparator(body, checkpoint, end)) continue;
    const closers = (tail.inString ? '"' : '') + tail.opened + baseClosers.slice(tail.basePopped);
    const value = parseJson(body.slice(0, end) + closers);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Scans `text[from, to)` on top of `base` without copying its stack: containers opened in the
 * tail (as their closers, innermost first) and how many of the base's containers the tail closed.
 * `undefined` on a mismatched closer.
 */
function scanTail(
  text: string,
  from: number,
  to: number,
  base: ScanState,
): { opened: string; basePopped: number; inString: boolean } | undefined {
  const opened: number[] = [];
  let basePopped = 0;
  let inString = base.inString;
  let escaped = base.escaped;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 92) escaped = true;
      else if (code === 34) inString = false;
    } else if (code === 34) {
      inString = true;
    } else if (code === 123 || code === 91) {
      opened.push(code === 123 ? 125 : 93);
    } else if (code === 125 || code === 93) {
      if (opened.length > 0) {
        if (opened.pop() !== code) return undefined;
      } else {
        const owed = base.stack[base.stack.length - 1 - basePopped];
        if (owed !== code) return undefined;
        basePopped += 1;
      }
    }
  }
  let closers = '';
  for (let depth = opened.length - 1; depth >= 0; depth--) closers += opened[depth] === 125 ? '}' : ']';
  return { opened: closers, basePopped, inString };
}

/** Whether the last non-whitespace character of `text[from, to)` is `,` or `:`. */
function endsWithSeparator(text: string, from: number, to: number): boolean {
  for (let index = to - 1; index >= from; index--) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 10 || code === 13 || code === 9) continue;
    return code === 44 || code === 58;
  }
  return false;
}
