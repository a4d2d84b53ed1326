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
 */
export function feedFence(
  state: FenceState,
  chunk: string,
  onRange: (start: number, end: number, reasoning?: boolean) => void,
  lowerChunk?: string,
): void {
  feedReasoning(state, chunk, state.offset, (start, end) => onRange(start, end, true), lowerChunk);
  // Lines without ` or ~ can neither open nor close a fence or a span: both skip to the last line.
  const lastLineEnd = hasFenceCharacter(chunk) ? undefined : chunk.lastIndexOf('\n');
  feedInlineCode(state, chunk, state.offset, onRange, lastLineEnd);
  const length = chunk.length;
  let index = 0;
  if ((state.stage === INDENT || state.stage === REST) && lastLineEnd !== undefined && lastLineEnd >= 0) {
    state.offset += lastLineEnd + 1;
    state.lineStart = state.offset;
    state.stage = INDENT;
    state.indent = 0;
    index = lastLineEnd + 1;
  }
  while (index < length) {
    if (state.stage === REST) {
      const newline = chunk.indexOf('\n', index);
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
        if (code === 32) {
          state.indent++;
          if (state.indent > 3) state.stage = REST;
        } else if (code === 96 || code === 126) {
          state.stage = RUN;
          state.runChar = code;
          state.runStart = state.offset;
          state.runLength = 1;
        } else {
          state.stage = REST;
        }
        break;
      case RUN:
        if (code === state.runChar) {
          state.runLength++;
        } else {
          endRun(state, onRange);
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
    if (current.stage === RUN) endRun(current, onRange);
    if (current.stage === INFO_SPACE || current.stage === WORD) decideOpener(current);
  }
}

/**
 * @internal Ends the text: a fence line still being read is decided, and an open fence protects to
 * the end. In stream mode an undecided line is left undecided (nothing after it exists yet).
 */
export function finishFence(
  state: FenceState,
  complete: boolean,
  onRange: (start: number, end: number, reasoning?: boolean) => void,
): void {
  if (complete) {
    if (state.stage === RUN) endRun(state, onRange);
    if (state.stage === INFO_SPACE || state.stage === WORD) decideOpener(state);
  }
  if (state.openStart >= 0) onRange(state.openStart, state.offset);
  finishReasoning(state, state.offset, (start, end) => onRange(start, end, true));
  if (complete) finishInlineCode(state, onRange);
}

function endRun(state: FenceState, onRange: (start: number, end: number) => void): void {
  if (state.runLength < 3) {
    state.stage = REST;
    return;
  }
  if (state.openStart >= 0) {
    if (state.runChar === state.openChar && state.runLength >= state.openLength) {
      onRange(state.openStart, state.runStart + state.runLength);
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
