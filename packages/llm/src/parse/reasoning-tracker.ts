/**
 * Reasoning regions: text a model writes while thinking, where markup is never a call (models quote
 * and rehearse calls there). Each opener pairs with its closer; matched case-insensitively.
 * - `<think>` … `</think>` (DeepSeek R1, Qwen3, GLM, MiniMax and most open reasoning models),
 *   `<thinking>` … `</thinking>`;
 * - `[THINK]` … `[/THINK]` (Magistral / Mistral reasoning);
 * - `<|channel|>analysis<|message|>` … `<|end|>` (the Harmony analysis channel of gpt-oss).
 *
 * The exception, documented here and in the sentinel grammar: Kimi K2 (Thinking) emits its real
 * call section inside its reasoning, so a Kimi call token (`<|tool_calls_section_begin|>`,
 * `<|tool_call_begin|>`) ends the region where it starts. An opener without its closer is
 * reasoning to the end of the text.
 */
const pairs: ReadonlyArray<readonly [string, string]> = [
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
  ['[think]', '[/think]'],
  ['<|channel|>analysis<|message|>', '<|end|>'],
];
const callTokens: readonly string[] = ['<|tool_calls_section_begin|>', '<|tool_call_begin|>'];
const longest = Math.max(...pairs.flat().map((token) => token.length), ...callTokens.map((token) => token.length));

/** @internal The carried state of the reasoning scan (flat, so the fence state can hold it). */
export interface ReasoningState {
  /** Absolute start of the open region, or -1. */
  reasoningStart: number;
  /** The closer of the open region. */
  reasoningCloser: string;
  /** The end of the text already read that may still begin a token (kept until more arrives). */
  reasoningTail: string;
}

/** @internal A state outside any region. */
export function initialReasoningState(): ReasoningState {
  return { reasoningStart: -1, reasoningCloser: '', reasoningTail: '' };
}

/**
 * @internal Reads `chunk`, which starts at absolute offset `base`, as the continuation of what
 * `state` has read, calling `onRange(start, end)` for every region that closes. Linear in the chunk.
 */
export function feedReasoning(
  state: ReasoningState,
  chunk: string,
  base: number,
  onRange: (start: number, end: number) => void,
): void {
  const carried = state.reasoningTail;
  const lower = (carried + chunk).toLowerCase();
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

/** @internal Ends the text: an open region runs to `end`. */
export function finishReasoning(
  state: ReasoningState,
  end: number,
  onRange: (start: number, end: number) => void,
): void {
  if (state.reasoningStart >= 0) onRange(state.reasoningStart, end);
}
