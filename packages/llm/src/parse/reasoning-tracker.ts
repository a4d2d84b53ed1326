import type { CallSource } from './parse-types.js';
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
// channel, FunctionGemma's call start, MiniMax M3's namespaced wrapper): these families put their
// real calls right after (or inside) their reasoning. Each ends a region only for a grammar enabled
// for the run, only at a token boundary (what follows is the start of that grammar's call, within
// a few characters), and never inside a fence or an inline code span written in the reasoning (by
// the fence tracker's state at the token, not a look-back window): a token mentioned in prose
// (`<start_function_call>.`) or quoted (`` `<|tool_call_begin|>…` ``, a ``` or ~~~ block) is text.
// Each `next` is bounded (it fits in LOOKAHEAD) and never matches at the very end of the text it
// is given (a word end is a following character, not `\b`), so a match on part of a stream is a
// match on all of it: what a split decides early, the whole text decides the same way.
/** @internal A call token that may end a reasoning region, with the grammar it belongs to. */
export interface CallTokenRule {
  readonly token: string;
  readonly source: CallSource;
  /** What must follow the token (lowered text, anchored at its end) for it to start a call. */
  readonly next: RegExp;
}
const callTokenRules: readonly CallTokenRule[] = [
  { token: '<|tool_calls_section_begin|>', source: 'sentinel', next: /\s{0,4}<\|tool_call_begin\|>/y },
  {
    token: '<|tool_call_begin|>',
    source: 'sentinel',
    next: /\s{0,4}(?:functions\.)?[a-z0-9_][\w.-]{0,40}(?::\d{1,4})?\s{0,4}<\|tool_call_argument_begin\|>/y,
  },
  { token: '<|open|>tools<|sep|>', source: 'xtml', next: /\s{0,4}<\|open\|>\s{0,4}call(?=\W)/y },
  { token: '<start_function_call>', source: 'function_gemma', next: /\s{0,4}call:[a-z0-9_]/y },
  { token: ']<]minimax[>[<tool_call>', source: 'invoke_xml', next: /\s{0,4}(?:\]<\]minimax\[>\[)?<invoke(?=\W)/y },
];
/** How far past a call token its boundary check looks (the tail keeps that much). */
const LOOKAHEAD = 96;
/** Every call token (the words that may end a region when their grammar is enabled). */
const callTokens: readonly string[] = callTokenRules.map((rule) => rule.token);

/** @internal The call tokens that may end a reasoning region in a run whose grammars `allows` admits. */
export function reasoningCallTokens(allows: (source: CallSource) => boolean): readonly CallTokenRule[] {
  return callTokenRules.filter((rule) => allows(rule.source));
}
/** Closers that end a region the prompt opened (Harmony's `<|end|>` ends every message, so not it). */
const leadingClosers: readonly string[] = ['</think>', '</thinking>', '[/think]'];
const longest =
  Math.max(...pairs.flat().map((token) => token.length), ...callTokens.map((token) => token.length)) + LOOKAHEAD + 2;
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
  /** The call tokens that may end a region this run (those of enabled grammars). */
  reasoningCallTokens: readonly CallTokenRule[];
  /**
   * Absolute start of a call token at the end of the text read so far whose boundary check needs
   * more text (a stream cannot tell yet whether it ends the region), else -1.
   */
  reasoningUndecidedToken: number;
  /**
   * Absolute offset where the next search for tokens starts: every token before it was acted on.
   */
  reasoningScanFrom: number;
  /** Whether a call token was judged before its lookahead had arrived: the next chunk reads it again. */
  reasoningRecheck: boolean;
}

/**
 * @internal A state outside any region. With `leadingReasoning` false the text is known not to
 * start inside a region the prompt opened (no leading-closer rule, nothing undecided).
 */
export function initialReasoningState(
  leadingReasoning = true,
  tokens: readonly CallTokenRule[] = callTokenRules,
): ReasoningState {
  return {
    reasoningStart: -1,
    reasoningCloser: '',
    reasoningTail: '',
    reasoningDecided: !leadingReasoning,
    reasoningCallTokens: tokens,
    reasoningUndecidedToken: -1,
    reasoningScanFrom: 0,
    reasoningRecheck: false,
  };
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
 * `state` has read, calling `onRange(start, end)` for every region that closes (`onRange(0, end,
 * true)` for the region a leading closer ends, the one the prompt opened). Linear in the chunk
 * (each token's search only moves forward through the text: nothing is searched twice or backwards).
 * `lowerChunk`, when given, is `chunk` with its ASCII letters lowered (it speeds up the common case).
 * `quoted(position)` tells whether an absolute position of the carried tail or the chunk is inside
 * a fence or an inline code span (the fence tracker's state there): a call token there is a
 * mention. Without it nothing is quoted.
 */
export function feedReasoning(
  state: ReasoningState,
  chunk: string,
  base: number,
  onRange: (start: number, end: number, promptOpened?: boolean) => void,
  lowerChunk?: string,
  quoted: (position: number) => boolean = () => false,
): void {
  const carried = state.reasoningTail;
  // A token judged without its lookahead is read again with the new text (the tail keeps it).
  const undecided = state.reasoningRecheck;
  state.reasoningUndecidedToken = -1;
  state.reasoningRecheck = false;
  // Every token ends in `>` or `]`, and the carried tail holds no token the search below would act
  // on (it acted on every such token when the tail was read): a chunk with neither character, as a
  // stream's small pieces mostly are, cannot change anything but the tail.
  if (!undecided && chunk.indexOf('>') < 0 && chunk.indexOf(']') < 0) {
    state.reasoningTail = tailOf(carried, chunk);
    return;
  }
  const joined = carried + chunk;
  const textBase = base - carried.length;
  // The carried text before the scan start was read (its tokens were acted on).
  const from = Math.max(0, state.reasoningScanFrom - textBase);
  const unread = from === 0 ? carried : carried.slice(from);
  // Most text holds no reasoning token: one search, and only the tail is kept.
  if (
    !undecided &&
    (lowerChunk === undefined ? !anyToken.test(unread + chunk) : !mayHoldToken(unread, chunk, lowerChunk))
  ) {
    state.reasoningTail = tailOf(carried, chunk, joined);
    return;
  }
  // Lowered in place (same length), so every index found in `lower` is one in `joined`.
  const lower = lowerAscii(joined);
  const nextAt = new Map<string, number>();
  const find = (token: string, from: number): number => {
    const cached = nextAt.get(token);
    if (cached !== undefined && (cached < 0 || cached >= from)) return cached;
    const found = lower.indexOf(token, from);
    nextAt.set(token, found);
    return found;
  };
  const calls = new CallFinder(lower, textBase, quoted);
  let position = from;
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
        const call = firstCallToken(state, calls, position);
        const first = Math.min(...[best, leading.at, call].filter((at) => at >= 0));
        if (Number.isFinite(first)) state.reasoningDecided = true;
        if (leading.at >= 0 && leading.at === first) {
          onRange(0, textBase + leading.at + leading.length, true);
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
    for (const rule of state.reasoningCallTokens) {
      const at = calls.next(rule, position);
      // A mention before the region's end too close to the text's end to tell: more text may make
      // it a call's start.
      const pending = calls.pendingMention(rule, position);
      if (pending >= 0 && (end < 0 || pending < end) && (at < 0 || pending < at)) {
        state.reasoningRecheck = true;
        if (state.reasoningUndecidedToken < 0) state.reasoningUndecidedToken = textBase + pending;
      }
      if (at >= 0 && (end < 0 || at < end)) {
        end = at;
        endLength = rule.token.length;
        rangeEnd = at;
      }
    }
    if (end < 0) break;
    onRange(state.reasoningStart, textBase + rangeEnd);
    state.reasoningStart = -1;
    state.reasoningCloser = '';
    position = end + endLength;
  }
  state.reasoningScanFrom = textBase + position;
  state.reasoningTail = tailOf(carried, chunk, joined);
}

/**
 * The call tokens of one read text that start a call: for each rule, the first one at or after a
 * position, found by a search that only moves forward (the positions asked for never decrease), so
 * a text is searched at most once per rule however many regions it holds. A token starts a call
 * when its grammar's call follows it within a few characters and it is not quoted (inside a fence
 * or an inline code span, by the fence tracker's state at that position).
 */
class CallFinder {
  private readonly found = new Map<CallTokenRule, { from: number; at: number; pending: number[] }>();

  constructor(
    private readonly lower: string,
    private readonly textBase: number,
    private readonly quoted: (position: number) => boolean,
  ) {}

  /** The first token of `rule` at or after `from` that starts a call, or -1. */
  next(rule: CallTokenRule, from: number): number {
    let entry = this.found.get(rule);
    if (entry !== undefined && (entry.at < 0 || entry.at >= from) && entry.from <= from) return entry.at;
    if (entry === undefined) {
      entry = { from, at: -1, pending: [] };
      this.found.set(rule, entry);
    }
    entry.from = from;
    let at = this.lower.indexOf(rule.token, from);
    while (at >= 0 && !this.startsCall(at, rule)) {
      // Too close to the end to tell: remembered, the caller may read it again with more text.
      if (this.lower.length - at - rule.token.length < LOOKAHEAD) entry.pending.push(at);
      at = this.lower.indexOf(rule.token, at + 1);
    }
    entry.at = at;
    return at;
  }

  /** The first mention of `rule` at or after `from` judged without its whole lookahead, or -1. */
  pendingMention(rule: CallTokenRule, from: number): number {
    const pending = this.found.get(rule)?.pending ?? [];
    for (const at of pending) if (at >= from) return at;
    return -1;
  }

  private startsCall(at: number, rule: CallTokenRule): boolean {
    rule.next.lastIndex = at + rule.token.length;
    return rule.next.test(this.lower) && !this.quoted(this.textBase + at);
  }
}

/**
 * The first of the state's call tokens at or after `from` that starts a call (see
 * {@link CallFinder}); a mention before it judged before its lookahead arrived is read again next
 * chunk.
 */
function firstCallToken(state: ReasoningState, calls: CallFinder, from: number): number {
  let best = -1;
  for (const rule of state.reasoningCallTokens) {
    const at = calls.next(rule, from);
    const pending = calls.pendingMention(rule, from);
    if (pending >= 0 && (best < 0 || pending < best) && (at < 0 || pending < at)) state.reasoningRecheck = true;
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
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
