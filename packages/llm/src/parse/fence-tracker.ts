import {
  feedInlineCode,
  finishInlineCode,
  type InlineCodeState,
  initialInlineCodeState,
} from './inline-code-tracker.js';
import {
  type CallTokenRule,
  feedReasoning,
  finishReasoning,
  initialReasoningState,
  type ReasoningState,
} from './reasoning-tracker.js';
import { isWhitespace } from './text-scanning.js';

/**
 * Info-string languages that mark a fence as a tool call rather than a code example
 * (compared case-insensitively).
 */
export const callFenceLanguages: readonly string[] = [
  'tool_call',
  'toolcall',
  'tool-call',
  'invoke',
  'tool_calls',
  'tool_code',
];

const INDENT = 0;
const RUN = 1;
const INFO_SPACE = 2;
const WORD = 3;
const REST = 4;
const MAX_WORD = 64;

/**
 * @internal The line-by-line state of a fence scan, with the reasoning-region scan riding along;
 * plain data, so it can be copied.
 */
export interface FenceState extends ReasoningState, InlineCodeState {
  /** Absolute offset of the next character to read. */
  offset: number;
  lineStart: number;
  stage: number;
  indent: number;
  runChar: number;
  runStart: number;
  runLength: number;
  word: string;
  /** The open protected fence, if any. */
  openChar: number;
  openLength: number;
  openStart: number;
  /**
   * The open fence of any kind (``` or ~~~, with any info string or none): the start of its opener
   * line, or -1. Text in it is quoted, so a call token there is a mention (see `feedReasoning`).
   */
  quoteOpenStart: number;
  quoteOpenChar: number;
  quoteOpenLength: number;
  /**
   * Whether the current line began with a run that closes that fence if nothing but spaces follows
   * it (CommonMark: `~~~tool_call` inside a ~~~ block is content, not a closer). Decided at the line end.
   */
  quoteClosing: boolean;
  /**
   * Quoted spans that have ended, as flat `[start, end)` pairs of absolute offsets: fences of any
   * kind and inline code spans (open or closed, from their opening run). Only those still ending in
   * the reasoning tracker's carried tail are kept (call tokens there may be read again). Replaced,
   * never changed in place: a copied state shares it.
   */
  quoteSpans: readonly number[];
  /**
   * Whether nothing but whitespace has been read yet: the reply's leading whitespace (spaces, tabs,
   * no-break spaces, blank lines) is layout, so it never counts as the first line's indent (a
   * ```` ```json ```` example after it is still one, as the parse reads the reply trimmed).
   */
  responseStart: boolean;
}

/** @internal A state at offset 0, outside any fence, at a line start (see `initialReasoningState`). */
export function initialFenceState(leadingReasoning = true, callTokens?: readonly CallTokenRule[]): FenceState {
  return {
    offset: 0,
    lineStart: 0,
    stage: INDENT,
    indent: 0,
    runChar: 0,
    runStart: 0,
    runLength: 0,
    word: '',
    openChar: 0,
    openLength: 0,
    openStart: -1,
    quoteOpenStart: -1,
    quoteOpenChar: 0,
    quoteOpenLength: 0,
    quoteClosing: false,
    quoteSpans: [],
    responseStart: true,
    ...initialReasoningState(leadingReasoning, callTokens),
    ...initialInlineCodeState(),
  };
}

/**
 * @internal Reads `chunk` as the continuation of the text `state` has seen, updating `state` in
 * place and calling `onRange(start, end)` (absolute offsets) for every protected fence that closes
 * (`onRange(start, end, true)` for a reasoning region).
 * A fence protects when it has at most three spaces of indent, three or more backticks or tildes,
 * and an info-string language that is not a call language; it ends just past the closing run,
 * which may carry trailing text on its line.
 *
 * Fences and inline code are read first, then reasoning: whether a call token in reasoning is a
 * mention is the fence and inline-code state at its position (any fence or code span open there),
 * so every split decides as the whole text does, with no look-back window.
 */
export function feedFence(
  state: FenceState,
  chunk: string,
  onRange: (start: number, end: number, reasoning?: boolean, promptOpened?: boolean) => void,
  lowerChunk?: string,
): void {
  const base = state.offset;
  const ended: number[] = [];
  const onQuoted = (start: number, end: number): void => {
    ended.push(start, end);
  };
  // Lines without ` or ~ can neither open nor close a fence or a span: both skip to the last line.
  const lastLineEnd = hasFenceCharacter(chunk) ? undefined : chunk.lastIndexOf('\n');
  feedInlineCode(state, chunk, base, onRange, lastLineEnd, onQuoted);
  readFenceLines(state, chunk, onRange, onQuoted, lastLineEnd);
  const carried = state.quoteSpans;
  const quoted = quotedPositions(state, carried, ended);
  feedReasoning(state, chunk, base, (start, end, prompt) => onRange(start, end, true, prompt), lowerChunk, quoted);
  state.quoteSpans = keptQuotes(carried, ended, state.offset - state.reasoningTail.length);
}

/**
 * Whether an absolute position read so far is quoted: inside a fence of any kind or an inline code
 * span open there (ended spans in `carried` and `ended`, and those still open at the end of the
 * text read). The ended spans are sorted once, on the first question, and searched by bisection.
 */
function quotedPositions(
  state: FenceState,
  carried: readonly number[],
  ended: readonly number[],
): (position: number) => boolean {
  const inlineStart = state.inlineOpenStart;
  const fenceStart = state.quoteOpenStart;
  const protectedStart = state.openStart;
  let starts: number[] | undefined;
  let reach: number[] = [];
  return (position) => {
    if (inlineStart >= 0 && position > inlineStart) return true;
    if (fenceStart >= 0 && position > fenceStart) return true;
    if (protectedStart >= 0 && position > protectedStart) return true;
    // Only the carried spans (they all reach into the tail, so there are few): each one is checked.
    if (ended.length === 0) {
      for (let index = 0; index + 1 < carried.length; index += 2) {
        if ((carried[index] ?? 0) < position && (carried[index + 1] ?? 0) > position) return true;
      }
      return false;
    }
    if (starts === undefined) [starts, reach] = sortedSpans(carried, ended);
    // The last span starting before `position`; `reach` holds the furthest end up to each span.
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] ?? 0) < position) low = middle + 1;
      else high = middle - 1;
    }
    return high >= 0 && (reach[high] ?? 0) > position;
  };
}

/** The spans' starts in order, with the furthest end among the spans up to each one. */
function sortedSpans(carried: readonly number[], ended: readonly number[]): [number[], number[]] {
  const pairs: Array<[number, number]> = [];
  for (const list of [carried, ended]) {
    for (let index = 0; index + 1 < list.length; index += 2) pairs.push([list[index] ?? 0, list[index + 1] ?? 0]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const reach: number[] = [];
  let furthest = -1;
  for (const [start, end] of pairs) {
    furthest = Math.max(furthest, end);
    starts.push(start);
    reach.push(furthest);
  }
  return [starts, reach];
}

/** The ended quoted spans still reaching past `from` (the start of the carried tail). */
function keptQuotes(carried: readonly number[], ended: readonly number[], from: number): readonly number[] {
  if (ended.length === 0) {
    let stale = false;
    for (let index = 1; index < carried.length && !stale; index += 2) stale = (carried[index] ?? 0) <= from;
    if (!stale) return carried;
  }
  const kept: number[] = [];
  for (const list of [carried, ended]) {
    for (let index = 0; index + 1 < list.length; index += 2) {
      const end = list[index + 1] ?? 0;
      if (end > from) kept.push(list[index] ?? 0, end);
    }
  }
  return kept;
}

/** Reads the fence lines of `chunk` (see {@link feedFence}). */
function readFenceLines(
  state: FenceState,
  chunk: string,
  onRange: (start: number, end: number, reasoning?: boolean, promptOpened?: boolean) => void,
  onQuoted: (start: number, end: number) => void,
  lastLineEnd: number | undefined,
): void {
  const length = chunk.length;
  let index = 0;
  if ((state.stage === INDENT || state.stage === REST) && lastLineEnd !== undefined && lastLineEnd >= 0) {
    if (state.quoteClosing) {
      const newline = chunk.indexOf('\n');
      if (!blank(chunk, 0, newline)) state.quoteClosing = false;
      else closeQuoteFence(state, state.offset + newline, onQuoted);
    }
    if (state.responseStart && chunk.slice(0, lastLineEnd + 1).trim() !== '') state.responseStart = false;
    state.offset += lastLineEnd + 1;
    state.lineStart = state.offset;
    state.stage = INDENT;
    state.indent = 0;
    index = lastLineEnd + 1;
  }
  while (index < length) {
    if (state.stage === REST) {
      const newline = chunk.indexOf('\n', index);
      if (state.quoteClosing && !blank(chunk, index, newline < 0 ? length : newline)) state.quoteClosing = false;
      if (newline < 0) {
        state.offset += length - index;
        return;
      }
      state.offset += newline - index;
      index = newline;
    }
    const code = chunk.charCodeAt(index);
    if (code === 10) {
      endLine(state);
      index++;
      state.offset++;
      state.lineStart = state.offset;
      state.stage = INDENT;
      state.indent = 0;
      continue;
    }
    switch (state.stage) {
      case INDENT:
        if (state.responseStart && isWhitespace(code)) {
          // Leading whitespace of the reply: layout, no indent.
        } else if (code === 32) {
          state.indent++;
          if (state.indent > 3) state.stage = REST;
        } else if (code === 96 || code === 126) {
          state.responseStart = false;
          state.stage = RUN;
          state.runChar = code;
          state.runStart = state.offset;
          state.runLength = 1;
        } else {
          state.responseStart = false;
          state.stage = REST;
        }
        break;
      case RUN:
        if (code === state.runChar) {
          state.runLength++;
        } else {
          endRun(state, onRange, onQuoted);
          continue;
        }
        break;
      case INFO_SPACE:
        if (code !== 32 && code !== 9) {
          state.stage = WORD;
          state.word = '';
          continue;
        }
        break;
      default:
        if (!isSpace(code)) state.quoteClosing = false;
        if (isSpace(code)) {
          decideOpener(state);
        } else if (state.word.length < MAX_WORD) {
          state.word += chunk[index];
        }
        break;
    }
    index++;
    state.offset++;
  }
  function endLine(current: FenceState): void {
    if (current.stage === RUN) endRun(current, onRange, onQuoted);
    if (current.stage === INFO_SPACE || current.stage === WORD) decideOpener(current);
    if (current.quoteClosing) closeQuoteFence(current, current.offset, onQuoted);
  }
}

/** Ends the open fence of any kind at `end` (its closing line's end). */
function closeQuoteFence(state: FenceState, end: number, onQuoted: (start: number, end: number) => void): void {
  onQuoted(state.quoteOpenStart, end);
  state.quoteOpenStart = -1;
  state.quoteClosing = false;
}

/** Whether `chunk` holds only spaces and tabs (and carriage returns) from `from` to `to`. */
function blank(chunk: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const code = chunk.charCodeAt(index);
    if (code !== 32 && code !== 9 && code !== 13) return false;
  }
  return true;
}

/**
 * @internal Ends the text: a fence line still being read is decided, and an open fence protects to
 * the end. In stream mode an undecided line is left undecided (nothing after it exists yet).
 */
export function finishFence(
  state: FenceState,
  complete: boolean,
  onRange: (start: number, end: number, reasoning?: boolean, promptOpened?: boolean) => void,
): void {
  if (complete) {
    if (state.stage === RUN) endRun(state, onRange);
    if (state.stage === INFO_SPACE || state.stage === WORD) decideOpener(state);
  }
  if (state.openStart >= 0) onRange(state.openStart, state.offset);
  finishReasoning(state, state.offset, (start, end) => onRange(start, end, true));
  if (complete) finishInlineCode(state, onRange);
}

function endRun(
  state: FenceState,
  onRange: (start: number, end: number) => void,
  onQuoted?: (start: number, end: number) => void,
): void {
  if (state.runLength < 3) {
    state.stage = REST;
    return;
  }
  // Any fence, whatever its language: a run opens one; a closing run with nothing but spaces after
  // it on its line ends it at the line's end (decided there).
  if (state.quoteOpenStart < 0) {
    state.quoteOpenStart = state.lineStart;
    state.quoteOpenChar = state.runChar;
    state.quoteOpenLength = state.runLength;
  } else if (state.runChar === state.quoteOpenChar && state.runLength >= state.quoteOpenLength) {
    state.quoteClosing = true;
  }
  if (state.openStart >= 0) {
    if (state.runChar === state.openChar && state.runLength >= state.openLength) {
      onRange(state.openStart, state.runStart + state.runLength);
      onQuoted?.(state.openStart, state.runStart + state.runLength);
      state.openStart = -1;
    }
    state.stage = REST;
    return;
  }
  state.stage = INFO_SPACE;
  state.word = '';
}

function decideOpener(state: FenceState): void {
  const language = state.word.toLowerCase();
  if (language.length > 0 && !callFenceLanguages.includes(language)) {
    state.openChar = state.runChar;
    state.openLength = state.runLength;
    state.openStart = state.lineStart;
  }
  state.stage = REST;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 11 || code === 12;
}

/**
 * @internal The start of the current line when it may still turn out to open a protected fence
 * (a fence run whose language is not known yet), else -1. Only a stream needs this: a block on
 * such a line cannot be decided until the line's language is.
 */
export function undecidedFenceLine(state: FenceState): number {
  // A call token in reasoning whose boundary is not decided yet may end the region there.
  const token = state.reasoningUndecidedToken;
  if (state.openStart >= 0) return token;
  const line = state.stage === RUN || state.stage === INFO_SPACE || state.stage === WORD ? state.lineStart : -1;
  return line < 0 ? token : token < 0 ? line : Math.min(line, token);
}

function hasFenceCharacter(chunk: string): boolean {
  return chunk.indexOf('`') >= 0 || chunk.indexOf('~') >= 0;
}
