/**
 * Inline code spans: markup a model quotes inside backticks in its answer ("the model would write
 * `<invoke name=…>`", "send ``<tool_call>{…}</tool_call>``") is content, never a call. The spans
 * follow CommonMark: a run of N backticks opens a span that the next run of exactly N backticks
 * closes (runs of other lengths inside are content); a backslash before the opening run makes it
 * literal; a span cannot cross a blank line or a fence line (three or more backticks or tildes at
 * the start of a line, at most three spaces of indent), which are never span runs themselves, so
 * ```` ```tool_call ```` fences and whole-response fences keep their own rules. An opening run
 * that no run closes is literal text.
 */

/** @internal The carried state of the inline-code scan (flat, so the fence state can hold it). */
export interface InlineCodeState {
  /** Absolute start of the open span, or -1. */
  inlineOpenStart: number;
  inlineOpenLength: number;
  /** The backtick or tilde run being read (it may continue in the next chunk), or -1. */
  inlineRunStart: number;
  inlineRunLength: number;
  inlineRunChar: number;
  /** Whether the current run began a line (after at most three spaces). */
  inlineRunAtLineStart: boolean;
  /** Whether a backslash came just before the current run (then it opens nothing). */
  inlineRunEscaped: boolean;
  /** Spaces read at the start of the current line; -1 once another character came. */
  inlineIndent: number;
  /** Whether the current line holds only spaces and tabs so far. */
  inlineBlank: boolean;
  /** The code unit before the current position (a backslash escapes a run). */
  inlinePrevious: number;
}

/** @internal A state at a line start, outside any span. */
export function initialInlineCodeState(): InlineCodeState {
  return {
    inlineOpenStart: -1,
    inlineOpenLength: 0,
    inlineRunStart: -1,
    inlineRunLength: 0,
    inlineRunChar: 0,
    inlineRunAtLineStart: false,
    inlineRunEscaped: false,
    inlineIndent: 0,
    inlineBlank: true,
    inlinePrevious: 10,
  };
}

const BACKTICK = 96;
const TILDE = 126;
const NEWLINE = 10;

/**
 * @internal Reads `chunk`, which starts at absolute offset `base`, calling `onRange(start, end)` for
 * every span that closes. Linear in the chunk. `lastLineEnd`, when the caller has found that the
 * chunk holds no backtick or tilde, is the index of its last `\n` (-1 when it has none).
 * `onQuoted(start, end)`, when given, is called whenever an open span stops being open: closed (as
 * `onRange`) or dropped at a blank line or a fence line (an opening run read so far is open code to
 * a reader of the text up to there: the reasoning tracker judges call tokens by it).
 */
export function feedInlineCode(
  state: InlineCodeState,
  chunk: string,
  base: number,
  onRange: (start: number, end: number) => void,
  lastLineEnd?: number,
  onQuoted?: (start: number, end: number) => void,
): void {
  // A chunk without a backtick or tilde, with no span or run open, changes nothing before its last
  // line (a line end resets the line's state): only the last line is read.
  const first =
    lastLineEnd !== undefined && lastLineEnd > 0 && state.inlineRunStart < 0 && state.inlineOpenStart < 0
      ? lastLineEnd
      : 0;
  // The next backtick and line end at or after the cursor, each found once per pass (linear).
  let tick = -2;
  let newline = -2;
  const nextInteresting = (from: number): number => {
    if (tick !== -1 && tick < from) tick = chunk.indexOf('`', from);
    if (newline !== -1 && newline < from) newline = chunk.indexOf('\n', from);
    if (tick < 0 && newline < 0) return chunk.length;
    if (tick < 0) return newline;
    if (newline < 0) return tick;
    return Math.min(tick, newline);
  };
  for (let index = first; index < chunk.length; index++) {
    const code = chunk.charCodeAt(index);
    if (state.inlineRunStart >= 0) {
      if (code === state.inlineRunChar) {
        state.inlineRunLength++;
        state.inlinePrevious = code;
        continue;
      }
      endRun(state, onRange, onQuoted);
    }
    if (code === NEWLINE) {
      if (state.inlineBlank && state.inlineOpenStart >= 0) {
        onQuoted?.(state.inlineOpenStart, base + index);
        state.inlineOpenStart = -1;
      }
      state.inlineIndent = 0;
      state.inlineBlank = true;
      state.inlinePrevious = code;
      continue;
    }
    const atLineStart = state.inlineIndent >= 0 && state.inlineIndent <= 3;
    if (code === BACKTICK || (code === TILDE && atLineStart)) {
      state.inlineRunStart = base + index;
      state.inlineRunLength = 1;
      state.inlineRunChar = code;
      state.inlineRunAtLineStart = atLineStart;
      state.inlineRunEscaped = state.inlinePrevious === 92;
      state.inlineBlank = false;
      state.inlineIndent = -1;
      continue;
    }
    if (code === 32 && state.inlineIndent >= 0) state.inlineIndent++;
    else state.inlineIndent = -1;
    if (code !== 32 && code !== 9 && code !== 13) state.inlineBlank = false;
    // A quick skip to the next character that matters (a backtick or a line end).
    if (state.inlineIndent < 0 && !state.inlineBlank) {
      const next = nextInteresting(index + 1);
      if (next > index + 1) {
        state.inlinePrevious = chunk.charCodeAt(next - 1);
        index = next - 1;
        continue;
      }
    }
    state.inlinePrevious = code;
  }
}

/** @internal Ends the text: a run still being read ends; an open span is literal (no range). */
export function finishInlineCode(state: InlineCodeState, onRange: (start: number, end: number) => void): void {
  if (state.inlineRunStart >= 0) endRun(state, onRange);
}

/**
 * @internal In an incomplete text, where a span may be open (or a run at the end may open one):
 * blocks from there cannot be decided yet. -1 otherwise.
 */
export function undecidedInlineCode(state: InlineCodeState): number {
  if (state.inlineOpenStart >= 0) return state.inlineOpenStart;
  if (state.inlineRunStart >= 0 && state.inlineRunChar === BACKTICK) return state.inlineRunStart;
  return -1;
}

function endRun(
  state: InlineCodeState,
  onRange: (start: number, end: number) => void,
  onQuoted?: (start: number, end: number) => void,
): void {
  const start = state.inlineRunStart;
  const length = state.inlineRunLength;
  const fenceLine = state.inlineRunAtLineStart && length >= 3;
  const backtick = state.inlineRunChar === BACKTICK;
  const escaped = state.inlineRunEscaped;
  state.inlineRunStart = -1;
  state.inlineRunLength = 0;
  state.inlineRunEscaped = false;
  if (fenceLine) {
    if (state.inlineOpenStart >= 0) onQuoted?.(state.inlineOpenStart, start);
    state.inlineOpenStart = -1;
    return;
  }
  if (!backtick) return;
  if (state.inlineOpenStart >= 0) {
    if (length === state.inlineOpenLength) {
      onRange(state.inlineOpenStart, start + length);
      onQuoted?.(state.inlineOpenStart, start + length);
      state.inlineOpenStart = -1;
    }
    return;
  }
  if (escaped) return;
  state.inlineOpenStart = start;
  state.inlineOpenLength = length;
}
