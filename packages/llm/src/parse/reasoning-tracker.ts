import { lowerAscii } from './text-scanning.js';

/**
 * Reasoning regions: text a model writes while thinking, where markup is never a call (models quote
 * and rehearse calls there). Each opener pairs with its closer; matched case-insensitively.
 * - `<think>` … `</think>` (DeepSeek R1, Qwen3, GLM, MiniMax and most open reasoning models),
 *   `<thinking>` … `</thinking>`;
 * - `[THINK]` … `[/THINK]` (Magistral / Mistral reasoning);
 * - `<|channel|>analysis<|message|>` … `<|end|>` (the Harmony analysis channel of gpt-oss).
 *
 * The exception, documented here and in the sentinel grammar: Kimi K2 (Thinking) emits its real
 * call section inside its reasoning, so a call token that is a dedicated special token (Kimi's
 * `<|tool_calls_section_begin|>` and `<|tool_call_begin|>`, Kimi K3's `<|open|>tools<|sep|>`,
 * FunctionGemma's `<start_function_call>`, MiniMax M3's `]<]minimax[>[<tool_call>`) ends the region
 * where it starts, and decides the start: a `</think>` after it (inside an argument value) is
 * content, never a leading closer. An opener without its closer is
 * reasoning to the end of the text.
 *
 * A leading closer without an opener: templates that open the think block in the prompt (Qwen3
 * thinking, DeepSeek R1, whose generation prompt ends in `<think>\n`) make the model's text start
 * inside reasoning, so when a closer (`</think>`, `</thinking>`, `[/THINK]`) comes before any
 * opener and before any Kimi call token, everything from the start of the text to that closer is
 * reasoning. Until one of those tokens is seen the start is undecided: a stream cannot release a
 * call found there yet (see `ProtectedRegions.undecidedCallsFrom`).
 */
const pairs: ReadonlyArray<readonly [string, string]> = [
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
  ['[think]', '[/think]'],
  ['<|channel|>analysis<|message|>', '<|end|>'],
];
// Call openers that are dedicated special tokens (Kimi K2 sections and calls, Kimi K3's tools
// channel, FunctionGemma's call start, MiniMax M3's namespaced wrapper): prose cannot write them by
// accident, and these families put their real calls right after (or inside) their reasoning.
const callTokens: readonly string[] = [
  '<|tool_calls_section_begin|>',
  '<|tool_call_begin|>',
  '<|open|>tools<|sep|>',
  '<start_function_call>',
  ']<]minimax[>[<tool_call>',
];
/** Closers that end a region the prompt opened (Harmony's `<|end|>` ends every message, so not it). */
const leadingClosers: readonly string[] = ['</think>', '</thinking>', '[/think]'];
const longest = Math.max(...pairs.flat().map((token) => token.length), ...callTokens.map((token) => token.length));
/** Any of the tokens above, in any case: one search tells whether a chunk holds one at all. */
const anyToken = new RegExp(
  [...new Set([...pairs.flat(), ...callTokens])].map((token) => token.replace(/[|[\]\\/]/g, '\\$&')).join('|'),
  'iu',
);

/** @internal The carried state of the reasoning scan (flat, so the fence state can hold it). */
export interface ReasoningState {
  /** Absolute start of the open region, or -1. */
  reasoningStart: number;
  /** The closer of the open region. */
  reasoningCloser: string;
  /** The end of the text already read that may still begin a token (kept until more arrives). */
  reasoningTail: string;
  /**
   * Whether the start of the text is known not to be (or to be) a region the prompt opened: set by
   * the first opener, closer or Kimi call token.
   */
  reasoningDecided: boolean;
}

/**
 * @internal A state outside any region. With `leadingReasoning` false the text is known not to
 * start inside a region the prompt opened (no leading-closer rule, nothing undecided).
 */
export function initialReasoningState(leadingReasoning = true): ReasoningState {
  return { reasoningStart: -1, reasoningCloser: '', reasoningTail: '', reasoningDecided: !leadingReasoning };
}

/**
 * Whether `carried + chunk` may hold a token, given `lowerChunk` (`chunk` lowered, as the scan
 * context has it): by the characters every token has, `hink` or a pipe (searches for one rare
 * character or four letters are several times faster than the regular expression), or a token
 * across the join.
 */
function mayHoldToken(carried: string, chunk: string, lowerChunk: string): boolean {
  return (
    lowerChunk.indexOf('hink') >= 0 ||
    lowerChunk.indexOf('|') >= 0 ||
    lowerChunk.indexOf('<start_f') >= 0 ||
    lowerChunk.indexOf(']<]') >= 0 ||
    (carried !== '' && anyToken.test(carried + chunk.slice(0, longest - 1)))
  );
}

/**
 * The tail to carry after `carried + chunk` (`joined`): at least its last `longest - 1` characters,
 * where a token may have begun. From `chunk` when it is that long (slicing the joined string would
 * first copy a long chunk into it); a short chunk is appended, and the tail is cut back only past
 * twice that length, so a stream of small pieces costs one join each and a cut now and then.
 */
function tailOf(carried: string, chunk: string, joined = carried + chunk): string {
  const keep = longest - 1;
  if (chunk.length >= keep) return chunk.slice(chunk.length - keep);
  return joined.length > 2 * keep ? joined.slice(joined.length - keep) : joined;
}

/**
 * @internal Reads `chunk`, which starts at absolute offset `base`, as the continuation of what
 * `state` has read, calling `onRange(start, end)` for every region that closes. Linear in the chunk.
 * `lowerChunk`, when given, is `chunk` with its ASCII letters lowered (it speeds up the common case).
 */
export function feedReasoning(
  state: ReasoningState,
  chunk: string,
  base: number,
  onRange: (start: number, end: number) => void,
  lowerChunk?: string,
): void {
  const carried = state.reasoningTail;
  // Every token ends in `>` or `]`, and the carried tail holds no token the search below would act
  // on (it acted on every such token when the tail was read): a chunk with neither character, as a
  // stream's small pieces mostly are, cannot change anything but the tail.
  if (chunk.indexOf('>') < 0 && chunk.indexOf(']') < 0) {
    state.reasoningTail = tailOf(carried, chunk);
    return;
  }
  const joined = carried + chunk;
  // Most text holds no reasoning token: one search, and only the tail is kept.
  if (lowerChunk === undefined ? !anyToken.test(joined) : !mayHoldToken(carried, chunk, lowerChunk)) {
    state.reasoningTail = tailOf(carried, chunk, joined);
    return;
  }
  // Lowered in place (same length), so every index found in `lower` is one in `joined`.
  const lower = lowerAscii(joined);
  const textBase = base - carried.length;
  const nextAt = new Map<string, number>();
  const find = (token: string, from: number): number => {
    const cached = nextAt.get(token);
    if (cached !== undefined && (cached < 0 || cached >= from)) return cached;
    const found = lower.indexOf(token, from);
    nextAt.set(token, found);
    return found;
  };
  let position = 0;
  for (;;) {
    if (state.reasoningStart < 0) {
      let best = -1;
      let closer = '';
      let length = 0;
      for (const [opener, close] of pairs) {
        const at = find(opener, position);
        if (at >= 0 && (best < 0 || at < best)) {
          best = at;
          closer = close;
          length = opener.length;
        }
      }
      if (!state.reasoningDecided) {
        const leading = firstOf(leadingClosers, find, position);
        const call = firstOf(callTokens, find, position);
        const first = Math.min(...[best, leading.at, call.at].filter((at) => at >= 0));
        if (Number.isFinite(first)) state.reasoningDecided = true;
        if (leading.at >= 0 && leading.at === first) {
          onRange(0, textBase + leading.at + leading.length);
          position = leading.at + leading.length;
          continue;
        }
      }
      if (best < 0) break;
      state.reasoningStart = textBase + best;
      state.reasoningCloser = closer;
      position = best + length;
      continue;
    }
    let end = find(state.reasoningCloser, position);
    let endLength = state.reasoningCloser.length;
    let rangeEnd = end + endLength;
    for (const token of callTokens) {
      const at = find(token, position);
      if (at >= 0 && (end < 0 || at < end)) {
        end = at;
        endLength = token.length;
        rangeEnd = at;
      }
    }
    if (end < 0) break;
    onRange(state.reasoningStart, textBase + rangeEnd);
    state.reasoningStart = -1;
    state.reasoningCloser = '';
    position = end + endLength;
  }
  const keep = Math.max(position, lower.length - (longest - 1));
  state.reasoningTail = (carried + chunk).slice(keep);
}

function firstOf(
  tokens: readonly string[],
  find: (token: string, from: number) => number,
  from: number,
): { at: number; length: number } {
  let at = -1;
  let length = 0;
  for (const token of tokens) {
    const found = find(token, from);
    if (found >= 0 && (at < 0 || found < at)) {
      at = found;
      length = token.length;
    }
  }
  return { at, length };
}

/** @internal Ends the text: an open region runs to `end`. */
export function finishReasoning(
  state: ReasoningState,
  end: number,
  onRange: (start: number, end: number) => void,
): void {
  if (state.reasoningStart >= 0) onRange(state.reasoningStart, end);
}
