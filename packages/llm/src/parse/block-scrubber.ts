import { type FenceState, feedFence, initialFenceState } from './fence-tracker.js';
import { finalizeCalls } from './finalize-calls.js';
import {
  createGrammars,
  type StreamHoldPlan,
  streamHoldPlan,
  streamHoldWithoutScan,
} from './grammars/create-grammars.js';
import { NarrativeEmitter } from './narrative-emitter.js';
import type { ParsedText } from './parse-types.js';
import { findProtectedRegions } from './protected-regions.js';
import { reasoningCallTokens } from './reasoning-tracker.js';
import { createScanContext, type ToolKnowledge } from './scan-context.js';
import { scanText } from './scan-text.js';
import { containsAny } from './text-scanning.js';

const EAGER_LIMIT = 4096;
/** A word held without a scan (see `streamHoldWithoutScan`) longer than this is left to the scan. */
const WORD_LIMIT = 64;
/** Text released without a scan is read for fences and reasoning regions in pieces of about this size. */
const FENCE_BATCH = 256;
/** Without a decisive character, a held tail is rescanned after this many new characters at least. */
const MIN_GROWTH = 8;
/**
 * As {@link MIN_GROWTH}, for a tail held from a block that has begun (an opener, a call still
 * arriving): only a character of {@link CLOSING} can close it, so it is rescanned on one, and after this
 * many other characters only as a bound on how late a block that turns out to be prose (`add(`
 * followed by words) is released.
 */
const BLOCK_GROWTH = 64;
/**
 * Characters that can complete an opener or a block or start a new one: the last character of
 * every closer and opener of every grammar (`>` of tags and sentinel tokens, a backtick of fences,
 * `}` and `]` of JSON bodies, `)` of p-type calls, a newline) and the openers' first characters
 * `<` and `[`. A fragment without them leaves an opened block open.
 */
const DECISIVE = '<>[]}`)\n';
/** Of {@link DECISIVE}, the characters that can end a closer: all a block that has begun waits for. */
const CLOSING = '>]}`)\n';
/**
 * What every reasoning token has (see `reasoning-tracker.ts`): each ends in `>` or `]` and holds
 * `hink` (`</think>`, `[THINK]`), a pipe (`<|tool_call_begin|>`), `<start_f` or `]<]` (MiniMax), in
 * any case (Unicode folding, as the tracker's: a Kelvin sign is a `k`). Text without such a match
 * holds no token that could decide a held start.
 */
const REASONING_TOKEN_PART = /hink|\||<start_f|\]<\]/iu;
/** How much text before a fragment a reasoning token split across fragments may have begun in. */
const TOKEN_TAIL = 32;
/**
 * A tail held only because it may be the start of an opener (`<tool_ca`, a `]` of MiniMax's
 * `]<]minimax[>[`) at most this long is rescanned on every fragment: the next character either
 * extends the opener or shows the tail is prose, and the rescan reads no more than the tail.
 */
const OPENER_TAIL = 32;
/** How many released call blocks a region began inside are remembered (regions nest about this deep). */
const REGION_CALL_SPANS = 8;

const NOTHING = (): void => {};

/**
 * @internal The block reading of `createStreamScrubber`: the scan grammars over a held tail (see
 * its TSDoc for when a tail is rescanned). One class over its state, so one optimised `feed`
 * serves every stream. With {@link keepsFed} it keeps the whole stream fed ({@link fed}), which
 * the whole-response guard reads, without a copy of its own: its end is {@link unfenced} and
 * {@link buffer}, so a character fed is appended to one string, not two.
 */
export class BlockScrubber {
  /** The text fed since the stream began up to {@link unfenced}, when {@link keepsFed}. */
  private fedHead = '';
  /** @internal Whether the whole stream is kept (see {@link fed}, for the whole-response guard). */
  readonly keepsFed: boolean;
  /**
   * @internal Text released without a scan that the fence state has not read yet (it is read
   * before a scan, and in pieces of {@link FENCE_BATCH}). It is the part of {@link fed} after
   * {@link fedHead} and before {@link buffer}: a string of its own, as slicing a string still growing by
   * `+=` flattens all of it, on every read.
   */
  unfenced = '';
  /** @internal */
  readonly narrative = new NarrativeEmitter();
  /** @internal Held raw text: the end of {@link fed} not released yet. */
  buffer = '';
  /** @internal The code of the last character released (or -1). */
  previousCode = -1;
  /** @internal The closing mark of a quotation in prose open before `buffer` (`ScanResult.quoteAt`), or -1. */
  quote = -1;
  /** @internal */
  fence: FenceState;
  private readonly knowledge: ToolKnowledge;
  private readonly holdPlan: StreamHoldPlan;
  private heldAfterLastScan = 0;
  /** Whether the last scan held `buffer` from a block that has begun (see {@link BLOCK_GROWTH}). */
  private heldBlock = false;
  /** While `heldBlock`: the characters that can decide the held block (`ScanResult.pendingDecidedBy`). */
  private heldDecidedBy = CLOSING;
  /** Whether it held `buffer` until a reasoning token decides the start (`ScanResult.pendingReasoning`). */
  private heldForReasoning = false;
  /** While `heldForReasoning`: the last characters fed, where a token a fragment completes may have begun. */
  private tokenTail = '';
  /** Whether the last scan held `buffer` only as the start of an opener (see {@link OPENER_TAIL}). */
  private heldOpener = false;
  /** Whether `buffer` is a word held without a scan (see `streamHoldWithoutScan`). */
  private wordHeld = false;
  /** The absolute span of the last call block released (a region opened inside it is content). */
  private lastCallSpan: readonly [number, number] | undefined;
  /**
   * The absolute spans of released call blocks a region began inside (its opener is content, so a
   * region still open from it protects nothing), the last {@link REGION_CALL_SPANS} of them.
   */
  private regionCallSpans: Array<readonly [number, number]> = [];

  constructor(knowledge: ToolKnowledge, keepsFed: boolean) {
    this.knowledge = knowledge;
    this.keepsFed = keepsFed;
    this.holdPlan = streamHoldPlan(knowledge);
    this.fence = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
  }

  /** @internal The text fed since the stream began, when {@link keepsFed} (joined on each call: read it rarely). */
  fed(): string {
    return this.fedHead + this.unfenced + this.buffer;
  }

  /** @internal Has the fence state read {@link unfenced}. */
  readUnfenced(): void {
    if (this.unfenced === '') return;
    feedFence(this.fence, this.unfenced, NOTHING);
    if (this.keepsFed) this.fedHead += this.unfenced;
    this.unfenced = '';
  }

  /** @internal Adds `released` (released without a scan) to {@link unfenced}, read once it is {@link FENCE_BATCH} long. */
  addUnfenced(released: string): void {
    this.unfenced += released;
    if (this.unfenced.length >= FENCE_BATCH) this.readUnfenced();
  }

  /** Adds the next fragment; returns what is now safe to show. */
  feed(fragment: string): ParsedText {
    if (fragment !== '' && (this.buffer === '' || (this.wordHeld && this.buffer.length < WORD_LIMIT))) {
      // What a scan would do with text in which no block can start, without one: release it up
      // to a word that may still become an opener (held, and extended or released by the next feed).
      const text = this.buffer + fragment;
      // A closing mark of an open quotation (`”`, not a scan character) may undo its blocks: scanned.
      const closes = this.quote >= 0 && text.includes(String.fromCharCode(this.quote));
      const hold = closes ? undefined : streamHoldWithoutScan(this.holdPlan, text, this.previousCode);
      if (hold !== undefined) {
        try {
          // Set first: the stream fed stays `unfenced` then `buffer` whatever happens next.
          this.buffer = hold < text.length ? text.slice(hold) : '';
          if (hold > 0) {
            const released = text.slice(0, hold);
            this.narrative.append(released);
            this.addUnfenced(released);
            // Text without its closing mark changes an open quotation only by ending its line.
            if (this.quote >= 0 && released.includes('\n')) this.quote = -1;
            this.previousCode = text.charCodeAt(hold - 1);
          }
          this.wordHeld = this.buffer !== '';
          this.heldAfterLastScan = 0;
          return { text: this.narrative.take(), calls: [], diagnostics: [] };
        } catch {
          return { text: '', calls: [], diagnostics: [] };
        }
      }
    }
    this.wordHeld = false;
    this.buffer += fragment;
    const grown = this.buffer.length - this.heldAfterLastScan;
    const due = this.heldAfterLastScan === 0 || this.rescanDue(fragment, grown);
    if (this.buffer.length > EAGER_LIMIT && grown < this.heldAfterLastScan / 8) {
      return { text: '', calls: [], diagnostics: [] };
    }
    if (!due) return { text: '', calls: [], diagnostics: [] };
    try {
      return this.step(false);
    } catch {
      return { text: '', calls: [], diagnostics: [] };
    }
  }

  /** Ends the stream: completes what is buffered as a full parse would, and resets for a new stream. */
  flush(): ParsedText {
    try {
      return this.step(true);
    } catch {
      const text = this.buffer;
      this.reset();
      return { text, calls: [], diagnostics: [] };
    }
  }

  private step(final: boolean): ParsedText {
    this.readUnfenced();
    this.wordHeld = false;
    const { buffer, knowledge, narrative, fence } = this;
    const context = createScanContext(buffer, final ? 'batch' : 'stream', knowledge, this.previousCode);
    const grammars = createGrammars(context);
    const regions = findProtectedRegions(buffer, fence, final, true, context.lower);
    const offset = fence.offset;
    const prior = priorCallSpans(this.regionCallSpans, this.lastCallSpan, offset);
    const scan = scanText(buffer, grammars, regions, final, this.previousCode, prior, this.quote);
    // A region's opener may be decided only by text after the call it began in (a fence line's
    // language after a closing run, a token completed later): the call released last is remembered
    // as one a region began inside once a scan sees such a region, before a later call replaces it.
    const lastCallSpan = this.lastCallSpan;
    if (lastCallSpan !== undefined && this.regionCallSpans[this.regionCallSpans.length - 1]?.[0] !== lastCallSpan[0]) {
      if (regions.opensWithin(lastCallSpan[0] - offset, lastCallSpan[1] - offset))
        this.regionCallSpans.push(lastCallSpan);
    }
    if (scan.lastCallSpan !== undefined) {
      this.lastCallSpan = [scan.lastCallSpan[0] + offset, scan.lastCallSpan[1] + offset];
    }
    // A region that began inside a call block released now may still be open at the next scan.
    const taken = scan.callSpans ?? [];
    for (let index = prior.length; index < taken.length; index++) {
      const span = taken[index];
      if (span !== undefined && regions.opensWithin(span[0], span[1])) {
        this.regionCallSpans.push([span[0] + offset, span[1] + offset]);
      }
    }
    if (this.regionCallSpans.length > REGION_CALL_SPANS) {
      this.regionCallSpans = this.regionCallSpans.slice(-REGION_CALL_SPANS);
    }
    const { parts } = scan;
    for (let index = 0; index < parts.length - 1; index++) {
      const part = parts[index];
      if (part !== undefined) narrative.append(buffer.slice(part[0], part[1]));
      narrative.endPart();
    }
    const last = parts[parts.length - 1] ?? [0, buffer.length];
    let releaseEnd = last[1];
    // A hold can only shorten what the last part releases (none when it releases nothing).
    if (!final && releaseEnd > last[0]) {
      for (const grammar of grammars) {
        const hold = safeHold(() => grammar.holdFrom(last[0]));
        if (hold >= last[0] && hold < releaseEnd) releaseEnd = hold;
      }
    }
    // Held from the block itself (not from an earlier partial opener, nor for a quotation).
    this.heldBlock = scan.pending >= 0 && releaseEnd === scan.pending && scan.pendingQuote !== true;
    this.heldOpener = scan.pending < 0 && releaseEnd < last[1];
    this.heldForReasoning = this.heldBlock && scan.pendingReasoning === true;
    this.heldDecidedBy = (this.heldBlock ? scan.pendingDecidedBy : undefined) ?? CLOSING;
    narrative.append(buffer.slice(last[0], releaseEnd));
    const consumed = final ? buffer.length : releaseEnd;
    const finished = finalizeCalls(scan.calls, knowledge);
    const released: ParsedText = {
      text: narrative.take(),
      calls: finished.calls,
      diagnostics: [...scan.diagnostics, ...finished.diagnostics],
    };
    if (final) {
      this.reset();
      return released;
    }
    if (consumed > 0) {
      const read = buffer.slice(0, consumed);
      feedFence(fence, read, NOTHING);
      if (this.keepsFed) this.fedHead += read;
      this.quote = scan.quoteAt(consumed);
      this.previousCode = buffer.charCodeAt(consumed - 1);
      this.buffer = buffer.slice(consumed);
    }
    this.heldAfterLastScan = this.buffer.length;
    this.tokenTail = this.buffer.slice(-TOKEN_TAIL);
    return released;
  }

  /**
   * Whether the held tail plus `fragment` (now `grown` characters past the last scan) must be
   * scanned again: when the fragment brings something that can decide it, else once it has grown
   * enough that a hold something else ended is released only boundedly late.
   */
  private rescanDue(fragment: string, grown: number): boolean {
    if (this.heldOpener && this.heldAfterLastScan <= OPENER_TAIL) return true;
    if (this.heldForReasoning) {
      // The tail is trimmed only once it is twice as long as needed: one concatenation per feed.
      this.tokenTail += fragment;
      if (this.tokenTail.length > 2 * TOKEN_TAIL + fragment.length) {
        this.tokenTail = this.tokenTail.slice(-(TOKEN_TAIL + fragment.length));
      }
      // Only a reasoning token can release a block held for one: rescanned when one may have ended.
      const ends = fragment.indexOf('>') >= 0 || fragment.indexOf(']') >= 0;
      return (
        (ends && REASONING_TOKEN_PART.test(this.tokenTail)) ||
        grown >= Math.max(BLOCK_GROWTH, this.heldAfterLastScan / 8)
      );
    }
    // A block is rescanned on what can decide it: its grammar's closing characters, else `CLOSING`.
    if (this.heldBlock) {
      return grown >= Math.max(BLOCK_GROWTH, this.heldAfterLastScan / 8) || containsAny(fragment, this.heldDecidedBy);
    }
    return grown >= Math.max(MIN_GROWTH, this.heldAfterLastScan / 8) || containsAny(fragment, DECISIVE);
  }

  /** Forgets the stream. */
  private reset(): void {
    const knowledge = this.knowledge;
    this.narrative.reset();
    this.fence = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
    this.fedHead = '';
    this.unfenced = '';
    this.buffer = '';
    this.previousCode = -1;
    this.quote = -1;
    this.heldAfterLastScan = 0;
    this.heldBlock = false;
    this.heldOpener = false;
    this.heldDecidedBy = CLOSING;
    this.heldForReasoning = false;
    this.tokenTail = '';
    this.wordHeld = false;
    this.lastCallSpan = undefined;
    this.regionCallSpans = [];
  }
}

/**
 * The spans, relative to a buffer starting at `offset` and in text order, of the released call
 * blocks a region still open may have begun in: those a region began inside, and the last one.
 */
function priorCallSpans(
  regionSpans: ReadonlyArray<readonly [number, number]>,
  last: readonly [number, number] | undefined,
  offset: number,
): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = regionSpans.map(([start, end]) => [start - offset, end - offset]);
  const final = spans[spans.length - 1];
  if (last !== undefined && (final === undefined || last[0] > final[0] + offset)) {
    spans.push([last[0] - offset, last[1] - offset]);
  }
  return spans;
}

function safeHold(run: () => number): number {
  try {
    return run();
  } catch {
    return -1;
  }
}
