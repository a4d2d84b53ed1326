/** The first reasoning token, as `parseCompleteText` finds it (`<think>`, `</thinking>`, `[THINK]`, any case). */
const REASONING_TOKEN = /<(\/?)think(?:ing)?>|\[(\/?)think\]/i;
/** @internal Characters kept from one fragment to the next where a token split across them may have begun. */
export const TOKEN_TAIL = 16;
/** What {@link REASONING_TOKEN} matches, in lower case. */
const REASONING_TOKENS = ['<think>', '</think>', '<thinking>', '</thinking>', '[think]', '[/think]'];

/**
 * @internal Finds, in fragments as they arrive, where a leading reasoning region ends as `parseCompleteText`
 * reads it (its first reasoning token is a closer, with `leadingReasoning`; or an opener at the start
 * and that opener's closer). Only each fragment and a short tail are searched.
 */
export interface ReasoningEnd {
  /** 0: looking for the first token, 1: for the closer of an opener at the start, 2: done. */
  phase: number;
  closer: RegExp | undefined;
  tail: string;
  /** Raw characters before the newest fragment, and the absolute position of the first non-space one. */
  offset: number;
  firstNonSpace: number;
}

/** @internal A finder at a reply's first character. */
export function newReasoningEnd(): ReasoningEnd {
  return { phase: 0, closer: undefined, tail: '', offset: 0, firstNonSpace: -1 };
}

/** @internal What ends a leading reasoning region: its closer, the raw text after it and the absolute position past it. */
export interface FoundReasoningEnd {
  closer: RegExp;
  after: string;
  end: number;
}

/** @internal Returns the closer that ends the leading region and the raw text after it, when `raw` completes it. */
export function findReasoningEnd(
  state: ReasoningEnd,
  raw: string,
  leadingReasoning: boolean,
): FoundReasoningEnd | undefined {
  if (state.phase === 2) return undefined;
  const window = state.tail + raw;
  const windowStart = state.offset - state.tail.length;
  if (state.firstNonSpace < 0) {
    const first = raw.search(/\S/);
    if (first >= 0) state.firstNonSpace = state.offset + first;
  }
  state.offset += raw.length;
  // Every reasoning token starts with `<` or `[`: a window without either holds none, nor the start of one.
  if (!hasTokenStart(window)) {
    state.tail = '';
    return undefined;
  }
  // While looking for the first token, only a tail that may still become one is kept: the guard
  // reads fragments without a scan while there is none (a `<tool_call>` is past it at `<to`).
  state.tail = state.phase === 0 ? tokenPrefixTail(window.slice(-TOKEN_TAIL)) : window.slice(-TOKEN_TAIL);
  // Every token ends in `>` or `]`: a fragment without either completes none (the tail held none).
  if (raw.indexOf('>') < 0 && raw.indexOf(']') < 0) return undefined;
  if (state.phase === 0) {
    const token = REASONING_TOKEN.exec(window);
    if (token === null) return undefined;
    const atStart = state.firstNonSpace === windowStart + token.index;
    const pattern = new RegExp(token[0].replace(/[[\]/\\]/g, '\\$&'), 'i');
    if ((token[1] ?? token[2]) === '/') {
      state.phase = 2;
      if (!leadingReasoning) return undefined;
      const after = window.slice(token.index + token[0].length);
      return { closer: pattern, after, end: state.offset - after.length };
    }
    if (!atStart) {
      state.phase = 2;
      return undefined;
    }
    const closer = token[0].startsWith('[') ? '[/think]' : `</${token[0].slice(1)}`;
    state.closer = new RegExp(closer.replace(/[[\]/\\]/g, '\\$&'), 'i');
    state.phase = 1;
    // The closer may come in the same fragment: searched after the opener.
    return findCloser(state, window.slice(token.index + token[0].length));
  }
  return findCloser(state, window);
}

/** @internal Whether `text` has a `<` or a `[`, with which every reasoning token starts. */
export function hasTokenStart(text: string): boolean {
  return text.indexOf('<') >= 0 || text.indexOf('[') >= 0;
}

/**
 * The end of `tail` from its first character that may still begin a reasoning token (what is
 * before it can be part of none), or `''`. The tokens match ASCII letters in any case only
 * (`REASONING_TOKEN` has no `u` flag), so lower-casing decides.
 */
function tokenPrefixTail(tail: string): string {
  for (let index = 0; index < tail.length; index++) {
    const code = tail.charCodeAt(index);
    if (code !== 60 && code !== 91) continue;
    const rest = tail.slice(index).toLowerCase();
    for (const token of REASONING_TOKENS) if (token.startsWith(rest)) return tail.slice(index);
  }
  return '';
}

function findCloser(state: ReasoningEnd, window: string): FoundReasoningEnd | undefined {
  state.tail = window.slice(-TOKEN_TAIL);
  const closer = state.closer?.exec(window);
  if (closer === null || closer === undefined || state.closer === undefined) return undefined;
  state.phase = 2;
  const after = window.slice(closer.index + closer[0].length);
  return { closer: state.closer, after, end: state.offset - after.length };
}
