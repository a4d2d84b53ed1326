import { parseJson } from './parse-json.js';

/** Trailing characters dropped at most while looking for a closable prefix. */
const MAX_DROPPED = 64;

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
 * anywhere refuses, and so does text that owes nothing (it is complete, just invalid).
 * Returns the parsed value, or `undefined`.
 * @internal
 */
export function closeTruncatedJson(text: string): unknown {
  const brace = text.indexOf('{');
  const bracket = text.indexOf('[');
  const start = brace < 0 ? bracket : bracket < 0 ? brace : Math.min(brace, bracket);
  if (start < 0) return undefined;
  const body = text.slice(start).trimEnd();
  const checkpoint = Math.max(0, body.length - MAX_DROPPED);
  const base: ScanState = { stack: [], inString: false, escaped: false };
  if (!advance(body, 0, checkpoint, base)) return undefined;
  const full: ScanState = { ...base, stack: [...base.stack] };
  if (!advance(body, checkpoint, body.length, full)) return undefined;
  // Complete but invalid text (`{'a':'b'}`) is not truncated; cutting it down would only lose data.
  if (!full.inString && full.stack.length === 0) return undefined;
  for (let end = body.length; end >= checkpoint; end--) {
    const state: ScanState = { ...base, stack: [...base.stack] };
    advance(body, checkpoint, end, state);
    const closers: string[] = state.inString ? ['"'] : [];
    for (let depth = state.stack.length - 1; depth >= 0; depth--) {
      closers.push(state.stack[depth] === 125 ? '}' : ']');
    }
    const value = parseJson(body.slice(0, end) + closers.join(''));
    if (value !== undefined) return value;
  }
  return undefined;
}
