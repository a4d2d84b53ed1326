import type { ParseDiagnostic } from './parse-types.js';
import type { ProtectedRegions } from './protected-regions.js';
import type { Block, Grammar, RawCall } from './scan-types.js';

/** @internal The result of one left-to-right pass. */
export interface ScanResult {
  /**
   * Narrative parts as `[start, end)`: every removed block ends a part. The last part is still open:
   * it runs to the end of the text, or to `pending`.
   */
  readonly parts: Array<readonly [number, number]>;
  readonly calls: RawCall[];
  readonly diagnostics: ParseDiagnostic[];
  /** Stream mode: where an undecided block starts (everything from there is held), else -1. */
  readonly pending: number;
  /** Whether a run of blocks was left as text because it was quoted in prose. */
  readonly quoted: boolean;
  /** The span of the last call block taken, if any. */
  readonly lastCallSpan: readonly [number, number] | undefined;
}

/**
 * @internal Scans `text` left to right. Each grammar reports its next block (answers are cached
 * until the cursor passes them, which keeps the pass linear); the earliest start wins and ties go
 * to grammar order. Blocks starting inside a protected region are skipped, and a run of blocks
 * quoted in prose is undone (its text stays narrative). Calls and diagnostics come out in text order. `complete` is false for
 * a stream's buffer that may still grow; `previousCode` the code unit just before `text` (-1 at the
 * start); `priorCallSpan` the span (relative to `text`, so negative) of the last call block an
 * earlier scan of the stream took.
 */
export function scanText(
  text: string,
  grammars: readonly Grammar[],
  regions: ProtectedRegions,
  complete = true,
  previousCode = -1,
  priorCallSpan?: readonly [number, number],
): ScanResult {
  const parts: Array<readonly [number, number]> = [];
  const calls: RawCall[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  const cache: Array<Block | undefined | null> = grammars.map(() => null);
  const disabled = grammars.map(() => false);
  // The leading region's closer (`</think>`) is void when a block spans it: it was written in an
  // argument value, so nothing before it was reasoning.
  // A block still arriving over that closer decides nothing yet: the stream holds the region.
  const spans = regions.leadingEnd < 0 ? [] : grammars.map((grammar) => spanOverLeadingCloser(grammar, regions));
  const leadingVoid = spans.some((span) => span?.kind === 'calls');
  const undecided = leadingVoid ? undefined : spans.find((span) => span?.kind === 'pending');
  if (undecided !== undefined)
    return { parts: [[0, 0]], calls, diagnostics, pending: 0, quoted: false, lastCallSpan: undefined };
  let from = 0;
  let partStart = 0;
  let quoted = false;
  /** A run of adjacent blocks that began right after an opening quotation mark, and what to undo. */
  let run: QuotedRun | undefined;
  /** The spans of the call blocks taken so far. */
  const callSpans: Array<readonly [number, number]> = priorCallSpan === undefined ? [] : [priorCallSpan];
  let lastCallStart = -1;
  let lastCallEnd = -1;
  const lastCall = (): readonly [number, number] | undefined =>
    lastCallEnd < 0 ? undefined : [lastCallStart, lastCallEnd];
  for (;;) {
    let best: Block | undefined;
    let bestIndex = -1;
    for (let index = 0; index < grammars.length; index++) {
      let block = cache[index];
      if (block === null || (block !== undefined && block.start < from)) {
        block = nextUnprotected(index, from);
        cache[index] = block;
      }
      if (block !== undefined && (best === undefined || block.start < best.start)) {
        best = block;
        bestIndex = index;
      }
    }
    if (best === undefined) break;
    if (regions.undecidedFrom >= 0 && best.start >= regions.undecidedFrom) {
      const start = Math.max(regions.undecidedFrom, from);
      parts.push([partStart, start]);
      return { parts, calls, diagnostics, pending: start, quoted, lastCallSpan: lastCall() };
    }
    const source = grammars[bestIndex]?.source ?? 'tagged_json';
    if (
      best.kind !== 'unterminated' &&
      best.kind !== 'pending' &&
      regions.undecidedCallsFrom >= 0 &&
      best.start >= regions.undecidedCallsFrom
    ) {
      parts.push([partStart, best.start]);
      return { parts, calls, diagnostics, pending: best.start, quoted, lastCallSpan: lastCall() };
    }
    if (best.kind === 'pending') {
      if (run !== undefined && best.start === run.end) undoRun(run);
      const start = run !== undefined && best.start === run.end ? run.start : best.start;
      parts.push([partStart, start]);
      return { parts, calls, diagnostics, pending: start, quoted, lastCallSpan: lastCall() };
    }
    // Quoted markup: a run of blocks with nothing between them, written directly between an
    // opening quotation mark and its closer, is a quotation, not calls (the same rule for every
    // grammar). The run is taken as blocks are, and undone when the closer follows it.
    if (run !== undefined && (best.start !== run.end || best.kind === 'unterminated')) run = undefined;
    if (run === undefined && best.kind !== 'unterminated') {
      const closer = quoteCloser(best.start > 0 ? text.charCodeAt(best.start - 1) : previousCode);
      if (closer >= 0) {
        run = {
          start: best.start,
          end: best.start,
          closer,
          parts: parts.length,
          partStart,
          calls: calls.length,
          diagnostics: diagnostics.length,
          callSpans: callSpans.length,
          lastCallStart,
          lastCallEnd,
        };
      }
    }
    if (best.kind === 'unterminated') {
      diagnostics.push({ kind: 'unterminated_block', source });
    } else {
      parts.push([partStart, best.start]);
      partStart = best.end;
      if (best.kind === 'calls') {
        lastCallStart = best.start;
        lastCallEnd = best.end;
        // Only a text with protected regions asks which call a region opened in.
        if (regions.ranges.length > 0) {
          callSpans.push([best.start, best.end]);
          // A region opened inside this call protects nothing: answers that skipped it are stale.
          if (regions.opensWithin(best.start, best.end)) cache.fill(null);
        }
        calls.push(...best.calls);
        if (best.unterminated === true) diagnostics.push({ kind: 'unterminated_block', source });
        for (const tool of best.dropped ?? []) diagnostics.push({ kind: 'call_dropped', source, tool });
      } else if (best.kind === 'malformed')
        diagnostics.push({ kind: 'malformed_block', source, bodyChars: best.bodyChars });
    }
    from = Math.max(best.end, best.start + 1);
    if (run !== undefined && best.kind !== 'unterminated') {
      run.end = best.end;
      if (best.end >= text.length && !complete) {
        // The closer may still come: hold the run.
        const start = run.start;
        undoRun(run);
        parts.push([partStart, start]);
        return { parts, calls, diagnostics, pending: start, quoted, lastCallSpan: lastCall() };
      }
      if (text.charCodeAt(best.end) === run.closer) {
        undoRun(run);
        quoted = true;
        run = undefined;
      }
    }
    if (from > text.length) break;
  }
  // A stream whose quoted run is followed by the start of another block (an opener still
  // arriving) cannot tell yet whether the run ends in the closer: hold the run.
  if (run !== undefined && !complete && grammars.some((grammar) => safeHold(grammar, run?.end ?? 0) === run?.end)) {
    const start = run.start;
    undoRun(run);
    parts.push([partStart, start]);
    return { parts, calls, diagnostics, pending: start, quoted, lastCallSpan: lastCall() };
  }
  parts.push([partStart, Math.max(partStart, text.length)]);
  return { parts, calls, diagnostics, pending: -1, quoted, lastCallSpan: lastCall() };

  /** Undoes what a quoted run added: its blocks' text is narrative again, their calls are dropped. */
  function undoRun(quotedRun: QuotedRun): void {
    parts.length = quotedRun.parts;
    partStart = quotedRun.partStart;
    calls.length = quotedRun.calls;
    diagnostics.length = quotedRun.diagnostics;
    callSpans.length = quotedRun.callSpans;
    lastCallStart = quotedRun.lastCallStart;
    lastCallEnd = quotedRun.lastCallEnd;
  }

  /**
   * Whether a protected region began inside a call block already taken: its opener (`<think>`,
   * a fence) was written in an argument value, so it is content and protects nothing.
   */
  function regionStart(position: number): number {
    return regions.startAt(position);
  }

  function openedInCall(regionStart: number): boolean {
    // Spans are disjoint and in text order: the last one starting before the region's start decides.
    let low = 0;
    let high = callSpans.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((callSpans[middle]?.[0] ?? 0) < regionStart) low = middle + 1;
      else high = middle - 1;
    }
    const span = callSpans[high];
    return span !== undefined && span[1] > regionStart;
  }

  function nextUnprotected(index: number, start: number): Block | undefined {
    const grammar = grammars[index];
    if (grammar === undefined || disabled[index]) return undefined;
    try {
      let block = grammar.findNext(start);
      while (block !== undefined) {
        const end = regions.endAt(block.start);
        const voided =
          end >= 0 &&
          ((leadingVoid && block.start < regions.leadingEnd && !regions.protectedBesidesLeading(block.start)) ||
            openedInCall(regionStart(block.start)));
        if (end >= 0 && !voided) {
          block = grammar.findNext(end);
          continue;
        }
        return block;
      }
      return undefined;
    } catch {
      disabled[index] = true;
      return undefined;
    }
  }
}

/** The closing quotation mark for an opening one: `"…"`, `'…'`, `“…”`, `‘…’`, `«…»`, `「…」`; else -1. */
function quoteCloser(code: number): number {
  switch (code) {
    case 0x22:
      return 0x22;
    case 0x27:
      return 0x27;
    case 0x201c:
      return 0x201d;
    case 0x2018:
      return 0x2019;
    case 0xab:
      return 0xbb;
    case 0x300c:
      return 0x300d;
    default:
      return -1;
  }
}

/** A run of adjacent blocks after an opening quotation mark, and the scan state to restore. */
interface QuotedRun {
  readonly start: number;
  end: number;
  readonly closer: number;
  readonly parts: number;
  readonly partStart: number;
  readonly calls: number;
  readonly diagnostics: number;
  readonly callSpans: number;
  readonly lastCallStart: number;
  readonly lastCallEnd: number;
}

/**
 * The first of `grammar`'s blocks starting inside the leading reasoning region that runs past that
 * region's end: a call block holds the closer that ended the region (`</think>`) in an argument
 * value, so that closer is content; a block still arriving (stream) may turn out to.
 */
function spanOverLeadingCloser(grammar: Grammar, regions: ProtectedRegions): Block | undefined {
  const leadingEnd = regions.leadingEnd;
  try {
    for (let block = grammar.findNext(0); block !== undefined && block.start < leadingEnd; ) {
      const counts = !regions.protectedBesidesLeading(block.start);
      if (counts && ((block.kind === 'calls' && block.end > leadingEnd) || block.kind === 'pending')) return block;
      block = grammar.findNext(Math.max(block.start + 1, block.end));
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function safeHold(grammar: Grammar, floor: number): number {
  try {
    return grammar.holdFrom(floor);
  } catch {
    return -1;
  }
}
