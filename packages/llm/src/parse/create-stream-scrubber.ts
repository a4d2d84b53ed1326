import type { ToolSchema } from '../spec/tool-schema.js';
import { feedFence, initialFenceState } from './fence-tracker.js';
import { finalizeCalls } from './finalize-calls.js';
import { createGrammars, streamHoldWithoutScan } from './grammars/create-grammars.js';
import { createNarrativeEmitter } from './narrative-emitter.js';
import type { CallSource, ParsedText } from './parse-types.js';
import { findProtectedRegions } from './protected-regions.js';
import { reasoningCallTokens } from './reasoning-tracker.js';
import { createScanContext, createToolKnowledge } from './scan-context.js';
import { scanText } from './scan-text.js';
import { containsAny } from './text-scanning.js';
import { createWholeResponseGuard } from './whole-response-guard.js';

/** Options for {@link createStreamScrubber}. */
export interface StreamScrubberOptions {
  /** The tools offered this turn (name repair, P-Format / code bodies, seed formats). Default: none. */
  readonly tools?: readonly ToolSchema[] | undefined;
  /** As `ParseToolCallsOptions.toolCallFormats`: only these grammars read calls or hold openers. */
  readonly toolCallFormats?: readonly CallSource[] | undefined;
  /**
   * As `ParseToolCallsOptions.leadingReasoning` (default `true`). While it is on and no reasoning
   * token has arrived yet, a completed call block is held (with the text after it) until a token
   * decides whether the start was reasoning, or the stream ends; text before the block still flows.
   */
  readonly leadingReasoning?: boolean | undefined;
}

/** Strips tool-call markup from a stream of visible text as it arrives. */
export interface StreamScrubber {
  /**
   * Adds the next fragment. Returns the text that is now safe to show and the calls whose blocks
   * completed in it (each released exactly once).
   */
  feed(fragment: string): ParsedText;
  /**
   * Ends the stream: completes what is buffered as a full parse would, releases a dangling opener as
   * text, and resets the scrubber for a new stream.
   */
  flush(): ParsedText;
}

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

/**
 * Creates a scrubber for streamed visible text (L12). It reads the same scan grammars as
 * `parseToolCalls`; text a whole-response JSON reading could still read as a call (a reply, or the
 * answer after a leading reasoning region, starting with `{`, `[` or a fence around JSON,
 * `<|python_tag|>`, a JSON object naming an offered tool in prose) is held until the stream ends and
 * then replaced by that reading's narrative, and calls released meanwhile are held with it so one
 * reading decides (a call is never released twice); GLM lines are never streamed
 * and never shows a partial opener such as `<tool_ca`, `<｜tool▁`, `[TOOL_CALLS` or `<|channel|>`:
 * a tail that could still become an opener, and a block that has not closed, are held back.
 *
 * For any text and any split into fragments, the concatenated `text` of every `feed` and the final
 * `flush` equals `parseToolCalls(text).text` when that parse read JSON calls from the whole response, else
 * `parseToolCalls(text, {allowBareJson: false}).text` (GLM lines aside), and the released calls are the same, in the same order. Whitespace at the end of a
 * fragment is held until more text of the same paragraph arrives, because a call block may follow.
 *
 * Each feed looks at the held tail and the new fragment only. Text in which no block can start
 * (none of `<`, `[`, `]`, a backtick, `~`, a quotation mark, and with p-type tools `(`) is decided
 * without a scan: it goes straight to the narrative, except a last word that may still become an
 * opener without such a character (`functools`, a p-type tool's `name(`), which is held and then
 * extended or released by comparing the next fragment, so one-character feeds of plain text cost
 * about what large ones do. Otherwise the held tail plus the fragment is scanned with only the
 * grammars whose characters occur in it. A held tail is rescanned when a fragment brings a
 * character that can complete or start something (`<>[]}`, a backtick, `)`, a newline), else only
 * after it grows by 8 characters or an eighth, whichever is more (a tail of at most 32 characters
 * held only as the start of an opener, on every fragment, which shows whether it is one); a block that has begun only on
 * a character that can decide it (one that ends a token of its grammar or of a protected region:
 * `>`, `]` or a backtick for a `<tool_call>`-family, sentinel-token, Harmony or invoke-XML block
 * with no closer inside an open JSON value, so the JSON body's `}`s cost nothing; `>])}`, a
 * backtick or a newline for the others), else after 64 characters or an eighth. A complete block
 * held until a reasoning token decides whether the text began in reasoning (`leadingReasoning`) is
 * rescanned only when a fragment may
 * complete such a token, or after it grows by 64 characters or an eighth; while more than 4 KB is
 * held, only after it grows by an eighth. So total work stays linear, and held text is released at
 * most that much late, never early: the concatenated output does not depend on how the text was
 * split.
 */
export function createStreamScrubber(options: StreamScrubberOptions = {}): StreamScrubber {
  const knowledge = createToolKnowledge(options.tools, options);
  const holdWithoutScan = streamHoldWithoutScan(knowledge);
  const narrative = createNarrativeEmitter();
  const guard = createWholeResponseGuard(knowledge);
  let fence = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
  let buffer = '';
  let previousCode = -1;
  /** The closing mark of a quotation in prose open before `buffer` (`ScanResult.quoteAt`), or -1. */
  let quote = -1;
  let heldAfterLastScan = 0;
  /** Whether the last scan held `buffer` from a block that has begun (see {@link BLOCK_GROWTH}). */
  let heldBlock = false;
  /** While `heldBlock`: the characters that can decide the held block (`ScanResult.pendingDecidedBy`). */
  let heldDecidedBy = CLOSING;
  /** Whether it held `buffer` until a reasoning token decides the start (`ScanResult.pendingReasoning`). */
  let heldForReasoning = false;
  /** While `heldForReasoning`: the last characters fed, where a token a fragment completes may have begun. */
  let tokenTail = '';
  /** Whether the last scan held `buffer` only as the start of an opener (see {@link OPENER_TAIL}). */
  let heldOpener = false;
  /** Whether `buffer` is a word held without a scan (see `streamHoldWithoutScan`). */
  let wordHeld = false;
  /** Text released without a scan that the fence state has not read yet (it is read before a scan). */
  let unfenced = '';
  /** The absolute span of the last call block released (a region opened inside it is content). */
  let lastCallSpan: readonly [number, number] | undefined;
  /**
   * The absolute spans of released call blocks a region began inside (its opener is content, so a
   * region still open from it protects nothing), the last {@link REGION_CALL_SPANS} of them.
   */
  let regionCallSpans: Array<readonly [number, number]> = [];

  function readUnfenced(): void {
    if (unfenced === '') return;
    feedFence(fence, unfenced, () => {});
    unfenced = '';
  }

  function step(final: boolean): ParsedText {
    readUnfenced();
    wordHeld = false;
    const context = createScanContext(buffer, final ? 'batch' : 'stream', knowledge, previousCode);
    const grammars = createGrammars(context);
    const regions = findProtectedRegions(buffer, fence, final, true, context.lower);
    const offset = fence.offset;
    const prior = priorCallSpans(regionCallSpans, lastCallSpan, offset);
    const scan = scanText(buffer, grammars, regions, final, previousCode, prior, quote);
    // A region's opener may be decided only by text after the call it began in (a fence line's
    // language after a closing run, a token completed later): the call released last is remembered
    // as one a region began inside once a scan sees such a region, before a later call replaces it.
    if (lastCallSpan !== undefined && regionCallSpans[regionCallSpans.length - 1]?.[0] !== lastCallSpan[0]) {
      if (regions.opensWithin(lastCallSpan[0] - offset, lastCallSpan[1] - offset)) regionCallSpans.push(lastCallSpan);
    }
    if (scan.lastCallSpan !== undefined) {
      lastCallSpan = [scan.lastCallSpan[0] + offset, scan.lastCallSpan[1] + offset];
    }
    // A region that began inside a call block released now may still be open at the next scan.
    const taken = scan.callSpans ?? [];
    for (let index = prior.length; index < taken.length; index++) {
      const span = taken[index];
      if (span !== undefined && regions.opensWithin(span[0], span[1])) {
        regionCallSpans.push([span[0] + offset, span[1] + offset]);
      }
    }
    if (regionCallSpans.length > REGION_CALL_SPANS) regionCallSpans = regionCallSpans.slice(-REGION_CALL_SPANS);
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
    heldBlock = scan.pending >= 0 && releaseEnd === scan.pending && scan.pendingQuote !== true;
    heldOpener = scan.pending < 0 && releaseEnd < last[1];
    heldForReasoning = heldBlock && scan.pendingReasoning === true;
    heldDecidedBy = (heldBlock ? scan.pendingDecidedBy : undefined) ?? CLOSING;
    narrative.append(buffer.slice(last[0], releaseEnd));
    const consumed = final ? buffer.length : releaseEnd;
    const finished = finalizeCalls(scan.calls, knowledge);
    const released: ParsedText = {
      text: narrative.take(),
      calls: finished.calls,
      diagnostics: [...scan.diagnostics, ...finished.diagnostics],
    };
    if (final) {
      narrative.reset();
      fence = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
      buffer = '';
      previousCode = -1;
      quote = -1;
      heldAfterLastScan = 0;
      heldBlock = false;
      heldOpener = false;
      heldDecidedBy = CLOSING;
      heldForReasoning = false;
      tokenTail = '';
      wordHeld = false;
      unfenced = '';
      lastCallSpan = undefined;
      regionCallSpans = [];
      return released;
    }
    if (consumed > 0) {
      feedFence(fence, buffer.slice(0, consumed), () => {});
      quote = scan.quoteAt(consumed);
      previousCode = buffer.charCodeAt(consumed - 1);
      buffer = buffer.slice(consumed);
    }
    heldAfterLastScan = buffer.length;
    tokenTail = buffer.slice(-TOKEN_TAIL);
    return released;
  }

  /**
   * Whether the held tail plus `fragment` (now `grown` characters past the last scan) must be
   * scanned again: when the fragment brings something that can decide it, else once it has grown
   * enough that a hold something else ended is released only boundedly late.
   */
  function rescanDue(fragment: string, grown: number): boolean {
    if (heldOpener && heldAfterLastScan <= OPENER_TAIL) return true;
    if (heldForReasoning) {
      // The tail is trimmed only once it is twice as long as needed: one concatenation per feed.
      tokenTail += fragment;
      if (tokenTail.length > 2 * TOKEN_TAIL + fragment.length) {
        tokenTail = tokenTail.slice(-(TOKEN_TAIL + fragment.length));
      }
      // Only a reasoning token can release a block held for one: rescanned when one may have ended.
      const ends = fragment.indexOf('>') >= 0 || fragment.indexOf(']') >= 0;
      return (ends && REASONING_TOKEN_PART.test(tokenTail)) || grown >= Math.max(BLOCK_GROWTH, heldAfterLastScan / 8);
    }
    // A block is rescanned on what can decide it: its grammar's closing characters, else `CLOSING`.
    if (heldBlock)
      return grown >= Math.max(BLOCK_GROWTH, heldAfterLastScan / 8) || containsAny(fragment, heldDecidedBy);
    return grown >= Math.max(MIN_GROWTH, heldAfterLastScan / 8) || containsAny(fragment, DECISIVE);
  }

  const blocks = {
    feed(fragment: string): ParsedText {
      if (fragment !== '' && (buffer === '' || (wordHeld && buffer.length < WORD_LIMIT))) {
        // What a scan would do with text in which no block can start, without one: release it up
        // to a word that may still become an opener (held, and extended or released by the next feed).
        const text = buffer + fragment;
        // A closing mark of an open quotation (`”`, not a scan character) may undo its blocks: scanned.
        const closes = quote >= 0 && text.includes(String.fromCharCode(quote));
        const hold = closes ? undefined : holdWithoutScan(text, previousCode);
        if (hold !== undefined) {
          try {
            if (hold > 0) {
              const released = text.slice(0, hold);
              narrative.append(released);
              unfenced += released;
              if (unfenced.length >= FENCE_BATCH) readUnfenced();
              // Text without its closing mark changes an open quotation only by ending its line.
              if (quote >= 0 && released.includes('\n')) quote = -1;
              previousCode = text.charCodeAt(hold - 1);
            }
            buffer = hold < text.length ? text.slice(hold) : '';
            wordHeld = buffer !== '';
            heldAfterLastScan = 0;
            return { text: narrative.take(), calls: [], diagnostics: [] };
          } catch {
            return { text: '', calls: [], diagnostics: [] };
          }
        }
      }
      wordHeld = false;
      buffer += fragment;
      const grown = buffer.length - heldAfterLastScan;
      const due = heldAfterLastScan === 0 || rescanDue(fragment, grown);
      if (buffer.length > EAGER_LIMIT && grown < heldAfterLastScan / 8) return { text: '', calls: [], diagnostics: [] };
      if (!due) return { text: '', calls: [], diagnostics: [] };
      try {
        return step(false);
      } catch {
        return { text: '', calls: [], diagnostics: [] };
      }
    },
    flush(): ParsedText {
      try {
        return step(true);
      } catch {
        const text = buffer;
        buffer = '';
        wordHeld = false;
        unfenced = '';
        return { text, calls: [], diagnostics: [] };
      }
    },
  };
  if (guard === undefined) return blocks;
  // Text a whole-response reading (bare JSON, `<|python_tag|>`, JSON calls in prose) could still read is held.
  return {
    feed(fragment) {
      // The guard holds text and calls a whole-response reading could still replace.
      return guard.feed(fragment, blocks.feed(fragment));
    },
    flush() {
      return guard.flush(blocks.flush());
    },
  };
}

/** How many released call blocks a region began inside are remembered (regions nest about this deep). */
const REGION_CALL_SPANS = 8;

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
