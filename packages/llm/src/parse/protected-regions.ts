import { type FenceState, feedFence, finishFence, initialFenceState, undecidedFenceLine } from './fence-tracker.js';
import { undecidedInlineCode } from './inline-code-tracker.js';
import type { CallTokenRule } from './reasoning-tracker.js';

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
   * Where the innermost region containing `position` began (relative to this text, negative when
   * a stream's earlier text opened it), or -1 when `position` is not protected.
   */
  startAt(position: number): number;
  /**
   * Where the region {@link startAt} names ends (relative to this text), or -1 when `position` is
   * not protected: past it, an outer region (one opened inside a call, which protects nothing) may
   * still run on.
   */
  innermostEnd(position: number): number;
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
  /** In an incomplete text: no reasoning token has decided yet whether the text began in reasoning. */
  readonly reasoningUndecided: boolean;
  /**
   * The end of the reasoning region the prompt opened (the text starts in it and a leading closer
   * ends it; not a region the text opens with `<think>`), relative to this text; -1 when there is
   * none in it. A call block that
   * starts inside it and runs past its end holds its closer in a value (`"</think>"`): that closer
   * is content, and the block is read (see `scan-text.ts`).
   */
  readonly leadingEnd: number;
  /**
   * Where the span starting at this text's start really began, relative to this text: negative
   * when a stream's earlier text opened it, else 0.
   */
  readonly firstOrigin: number;
  /** Whether a region begins strictly inside `(start, end)`. */
  opensWithin(start: number, end: number): boolean;
  /** Whether `position` is in a protected region other than the leading reasoning region. */
  protectedBesidesLeading(position: number): boolean;
}

/**
 * Finds the protected regions of `text`. Offsets are relative to `text`; `state` (a copy is used)
 * continues a text that began earlier, as the stream scrubber needs, and `complete` says whether
 * `text` runs to the end of the response. `leadingReasoning` (without `state`) turns the
 * leading-closer rule on (default) or off. `lower`, when given, is `text` with its ASCII letters
 * lowered (the scan context's), which speeds up the search for reasoning tokens. `callTokens`
 * (without `state`): the call tokens that may end a reasoning region, those of the run's enabled
 * grammars (default every one).
 */
export function findProtectedRegions(
  text: string,
  state?: FenceState,
  complete = true,
  leadingReasoning = true,
  lower?: string,
  callTokens?: readonly CallTokenRule[],
): ProtectedRegions {
  const working: FenceState = state === undefined ? initialFenceState(leadingReasoning, callTokens) : { ...state };
  const base = working.offset;
  const ranges: Array<readonly [number, number]> = [];
  let leadingEnd = -1;
  /** Every region as found (before merging; starts not clamped), to tell which one a position is in. */
  const opened: Array<readonly [number, number, boolean]> = [];
  let firstOrigin = 0;
  const onRange = (start: number, end: number, reasoning = false, promptOpened = false): void => {
    const relativeStart = Math.max(0, start - base);
    const relativeEnd = end - base;
    // Only the region the prompt opened (ended by a leading closer) is the leading region: one the
    // reply opens with `<think>` was begun by the model, and markup in it is reasoning even when a
    // block runs past its closer (see `reasoning-tracker.ts`).
    const leading = reasoning && promptOpened && start === 0;
    if (relativeEnd > 0 && start - base < firstOrigin) firstOrigin = start - base;
    if (relativeEnd > relativeStart) opened.push([start - base, relativeEnd, leading]);
    if (leading && relativeEnd > 0) leadingEnd = relativeEnd;
    if (relativeEnd > relativeStart) ranges.push([relativeStart, relativeEnd]);
  };
  feedFence(working, text, onRange, lower);
  const undecided = complete ? -1 : undecidedFenceLine(working);
  const inline = complete ? -1 : undecidedInlineCode(working);
  const callsUndecided = complete ? -1 : !working.reasoningDecided ? 0 : inline < 0 ? -1 : Math.max(0, inline - base);
  finishFence(working, complete, onRange);
  mergeRanges(ranges);
  // Regions starting together (a fence on the first line of the region the prompt opened): the
  // outer one first, so the last one starting by a position is the innermost.
  opened.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  return {
    ranges,
    endAt: (position) => protectedRange(ranges, position)?.[1] ?? -1,
    startAt: (position) => innermostStart(opened, ranges, position),
    innermostEnd: (position) => innermostRegion(opened, ranges, position)[1],
    protectedBesidesLeading: (position) => besidesLeading(opened, ranges, position),
    opensWithin: (start, end) => (opened[lastStartingBy(opened, end - 1)]?.[0] ?? -1) > start,
    undecidedFrom: undecided < 0 ? -1 : Math.max(0, undecided - base),
    undecidedCallsFrom: callsUndecided,
    reasoningUndecided: !complete && !working.reasoningDecided,
    leadingEnd,
    firstOrigin,
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

function protectedRange(
  ranges: ReadonlyArray<readonly [number, number]>,
  position: number,
): readonly [number, number] | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle];
    if (range === undefined) return undefined;
    if (position < range[0]) high = middle - 1;
    else if (position >= range[1]) low = middle + 1;
    else return range;
  }
  return undefined;
}

/** How many regions back {@link innermostStart} looks for one still open at a position. */
const NESTING_LOOKBACK = 8;

/**
 * The start of the latest-starting region in `opened` (sorted by start) that contains `position`;
 * the merged span's start when none is found within a few regions back; -1 when unprotected.
 */
function innermostStart(
  opened: ReadonlyArray<readonly [number, number, boolean]>,
  ranges: ReadonlyArray<readonly [number, number]>,
  position: number,
): number {
  return innermostRegion(opened, ranges, position)[0];
}

/** As {@link innermostStart}, the whole `[start, end)` of that region; `[-1, -1]` when unprotected. */
function innermostRegion(
  opened: ReadonlyArray<readonly [number, number, boolean]>,
  ranges: ReadonlyArray<readonly [number, number]>,
  position: number,
): readonly [number, number] {
  const merged = protectedRange(ranges, position);
  if (merged === undefined) return [-1, -1];
  const high = lastStartingBy(opened, position);
  for (let index = high; index >= 0 && index > high - NESTING_LOOKBACK; index--) {
    const region = opened[index];
    if (region !== undefined && region[1] > position) return [region[0], region[1]];
  }
  return merged;
}

/** The index of the last region in `opened` (sorted by start) starting at or before `position`. */
function lastStartingBy(opened: ReadonlyArray<readonly [number, number, boolean]>, position: number): number {
  let low = 0;
  let high = opened.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((opened[middle]?.[0] ?? 0) <= position) low = middle + 1;
    else high = middle - 1;
  }
  return high;
}

/** Whether a region other than the leading reasoning one contains `position` (merged span when unsure). */
function besidesLeading(
  opened: ReadonlyArray<readonly [number, number, boolean]>,
  ranges: ReadonlyArray<readonly [number, number]>,
  position: number,
): boolean {
  if (protectedRange(ranges, position) === undefined) return false;
  const high = lastStartingBy(opened, position);
  for (let index = high; index >= 0; index--) {
    const region = opened[index];
    if (region === undefined) continue;
    if (high - index >= NESTING_LOOKBACK) return true;
    if (region[1] > position && !region[2]) return true;
  }
  return false;
}
