import { type FenceState, feedFence, finishFence, initialFenceState, undecidedFenceLine } from './fence-tracker.js';
import { undecidedInlineCode } from './inline-code-tracker.js';

/**
 * The spans of a text in which nothing is a tool call: fenced code blocks (``` or ~~~, three or
 * more, at most three spaces of indent) whose info-string language is set and is not a call
 * language (`tool_call`, `toolcall`, `tool-call`, `invoke`, `tool_calls`, `tool_code`). A fence without a
 * language is not protected (small models wrap real calls in bare fences). An unclosed fence
 * protects to the end; a closing fence may carry trailing text and its span ends at the run.
 * Reasoning regions (`<think>…</think>`, `[THINK]…[/THINK]`, the Harmony analysis channel; see
 * `reasoning-tracker.ts`) are protected too: markup there is reasoning text, kept in the narrative.
 * So are inline code spans (`` `…` ``, ``` ``…`` ```; see `inline-code-tracker.ts`): markup quoted
 * in backticks in an answer is content.
 *
 * Which fenced blocks are examples, precisely: a fence whose language is set and is not a call
 * language is an example (```` ```xml ````, ```` ```json ````, ```` ```python ```` in an
 * explanation). A fence without a language may hold real calls (small models wrap their call in a
 * bare fence). Two whole-response readings take precedence over the example rule because their
 * families really fence calls: a Command R+ `Action:` ```` ```json ```` fence of actions, and one
 * ```` ```xml ```` / ```` ```json ```` fence around a whole Hermes response that holds nothing but
 * `<tool_call>` blocks (see `parse-complete-text.ts`).
 */
export interface ProtectedRegions {
  /** `[start, end)` pairs, ordered and disjoint. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  /** The end of the protected span containing `position`, or -1 when it is not protected. */
  endAt(position: number): number;
  /**
   * In an incomplete text, where a last line starts that may still become a protected fence opener
   * (its language is not complete yet); blocks from there cannot be decided. -1 otherwise.
   */
  readonly undecidedFrom: number;
  /**
   * In an incomplete text, where a region may still turn out to have begun that nothing decides
   * yet: the start of the text while no reasoning token has been seen (a later `</think>` would
   * make everything before it reasoning). A call block starting there is held whole, while the
   * narrative before it is released. -1 when nothing is undecided.
   */
  readonly undecidedCallsFrom: number;
}

/**
 * Finds the protected regions of `text`. Offsets are relative to `text`; `state` (a copy is used)
 * continues a text that began earlier, as the stream scrubber needs, and `complete` says whether
 * `text` runs to the end of the response. `leadingReasoning` (without `state`) turns the
 * leading-closer rule on (default) or off. `lower`, when given, is `text` with its ASCII letters
 * lowered (the scan context's), which speeds up the search for reasoning tokens.
 */
export function findProtectedRegions(
  text: string,
  state?: FenceState,
  complete = true,
  leadingReasoning = true,
  lower?: string,
): ProtectedRegions {
  const working: FenceState = state === undefined ? initialFenceState(leadingReasoning) : { ...state };
  const base = working.offset;
  const ranges: Array<readonly [number, number]> = [];
  const onRange = (start: number, end: number): void => {
    const relativeStart = Math.max(0, start - base);
    const relativeEnd = end - base;
    if (relativeEnd > relativeStart) ranges.push([relativeStart, relativeEnd]);
  };
  feedFence(working, text, onRange, lower);
  const undecided = complete ? -1 : undecidedFenceLine(working);
  const inline = complete ? -1 : undecidedInlineCode(working);
  const callsUndecided = complete ? -1 : !working.reasoningDecided ? 0 : inline < 0 ? -1 : Math.max(0, inline - base);
  finishFence(working, complete, onRange);
  mergeRanges(ranges);
  return {
    ranges,
    endAt: (position) => protectedEnd(ranges, position),
    undecidedFrom: undecided < 0 ? -1 : Math.max(0, undecided - base),
    undecidedCallsFrom: callsUndecided,
  };
}

/** Sorts the ranges by start and merges overlapping ones, in place (fences and reasoning may nest). */
function mergeRanges(ranges: Array<readonly [number, number]>): void {
  ranges.sort((a, b) => a[0] - b[0]);
  let write = 0;
  for (const range of ranges) {
    const last = ranges[write - 1];
    if (last !== undefined && range[0] <= last[1]) {
      if (range[1] > last[1]) ranges[write - 1] = [last[0], range[1]];
    } else {
      ranges[write++] = range;
    }
  }
  ranges.length = write;
}

function protectedEnd(ranges: ReadonlyArray<readonly [number, number]>, position: number): number {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle];
    if (range === undefined) return -1;
    if (position < range[0]) high = middle - 1;
    else if (position >= range[1]) low = middle + 1;
    else return range[1];
  }
  return -1;
}
