import type { ToolSchema } from '../spec/tool-schema.js';
import { feedFence, initialFenceState } from './fence-tracker.js';
import { finalizeCalls } from './finalize-calls.js';
import { createGrammars, streamNeedsScan } from './grammars/create-grammars.js';
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
/** Quotation marks that may open a quotation in prose (see `scan-text.ts`). */
const QUOTE_MARKS = /["'\u201c\u2018\u00ab\u300c]/;
/** Without a decisive character, a held tail is rescanned after this many new characters at least. */
const MIN_GROWTH = 8;
/**
 * Characters that can complete an opener or a block or start a new one: the last character of
 * every closer and opener of every grammar (`>` of tags and sentinel tokens, a backtick of fences,
 * `}` and `]` of JSON bodies, `)` of p-type calls, a newline) and the openers' first characters
 * `<` and `[`. A fragment without them leaves an opened block open.
 */
const DECISIVE = '<>[]}`)\n';

/**
 * Creates a scrubber for streamed visible text (L12). It reads the same scan grammars as
 * `parseToolCalls`; text a whole-response JSON reading could still read as a call (a reply starting with
 * `{`, `[` or a ```json fence, `<|python_tag|>`, a JSON object naming an offered tool in prose) is held
 * until the stream ends and then replaced by that reading's narrative; GLM lines are never streamed
 * and never shows a partial opener such as `<tool_ca`, `<｜tool▁`, `[TOOL_CALLS` or `<|channel|>`:
 * a tail that could still become an opener, and a block that has not closed, are held back.
 *
 * For any text and any split into fragments, the concatenated `text` of every `feed` and the final
 * `flush` equals `parseToolCalls(text).text` when that parse read JSON calls from the whole response, else
 * `parseToolCalls(text, {allowBareJson: false}).text` (GLM lines aside), and the released calls are the same, in the same order. Whitespace at the end of a
 * fragment is held until more text of the same paragraph arrives, because a call block may follow.
 *
 * Each feed looks at the held tail and the new fragment only. When nothing is held and the
 * fragment has none of the characters any grammar needs to start a block or a partial opener
 * (`<`, `[`, `` ` ``, `f` of `functools[`, and for p-type tools `(` and the tools' first letters), it cannot hold or
 * contain markup: it goes straight to the narrative, without a scan, so one-character feeds of
 * plain text cost about what large ones do. Otherwise the held tail plus the fragment is scanned
 * with only the grammars whose characters occur in it. A held tail is rescanned when a fragment
 * brings a character that can complete or start something (`<>[]}`, a backtick, `)`, a newline),
 * else only after it grows by 8 characters or an eighth, whichever is more; while more than 4 KB
 * is held (one huge unfinished block), only after it grows by an eighth. So total work stays
 * linear, and held text is released at most that much late, never early: the concatenated output
 * does not depend on how the text was split.
 */
export function createStreamScrubber(options: StreamScrubberOptions = {}): StreamScrubber {
  const knowledge = createToolKnowledge(options.tools, options);
  const needsScan = streamNeedsScan(knowledge);
  const narrative = createNarrativeEmitter();
  const guard = createWholeResponseGuard(knowledge);
  let fence = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
  let buffer = '';
  let previousCode = -1;
  let heldAfterLastScan = 0;
  /** The absolute span of the last call block released (a region opened inside it is content). */
  let lastCallSpan: readonly [number, number] | undefined;

  function step(final: boolean): ParsedText {
    const context = createScanContext(buffer, final ? 'batch' : 'stream', knowledge, previousCode);
    const grammars = createGrammars(context);
    const scan = scanText(
      buffer,
      grammars,
      findProtectedRegions(buffer, fence, final, true, context.lower),
      final,
      previousCode,
      lastCallSpan === undefined ? undefined : [lastCallSpan[0] - fence.offset, lastCallSpan[1] - fence.offset],
    );
    if (scan.lastCallSpan !== undefined) {
      lastCallSpan = [scan.lastCallSpan[0] + fence.offset, scan.lastCallSpan[1] + fence.offset];
    }
    const { parts } = scan;
    for (let index = 0; index < parts.length - 1; index++) {
      const part = parts[index];
      if (part !== undefined) narrative.append(buffer.slice(part[0], part[1]));
      narrative.endPart();
    }
    const last = parts[parts.length - 1] ?? [0, buffer.length];
    let releaseEnd = last[1];
    if (!final) {
      for (const grammar of grammars) {
        const hold = safeHold(() => grammar.holdFrom(last[0]));
        if (hold >= last[0] && hold < releaseEnd) releaseEnd = hold;
      }
    }
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
      heldAfterLastScan = 0;
      lastCallSpan = undefined;
      return released;
    }
    if (consumed > 0) {
      feedFence(fence, buffer.slice(0, consumed), () => {});
      previousCode = buffer.charCodeAt(consumed - 1);
      buffer = buffer.slice(consumed);
    }
    heldAfterLastScan = buffer.length;
    return released;
  }

  const blocks = {
    feed(fragment: string): ParsedText {
      // A quotation mark may open a quotation whose calls are examples: such text is scanned (held).
      if (buffer === '' && fragment !== '' && !needsScan(fragment, previousCode) && !QUOTE_MARKS.test(fragment)) {
        // What a scan would do with text that holds no block and no partial opener, without one.
        try {
          narrative.append(fragment);
          feedFence(fence, fragment, () => {});
          previousCode = fragment.charCodeAt(fragment.length - 1);
          heldAfterLastScan = 0;
          return { text: narrative.take(), calls: [], diagnostics: [] };
        } catch {
          return { text: '', calls: [], diagnostics: [] };
        }
      }
      buffer += fragment;
      const grown = buffer.length - heldAfterLastScan;
      if (buffer.length > EAGER_LIMIT && grown < heldAfterLastScan / 8) return { text: '', calls: [], diagnostics: [] };
      if (
        heldAfterLastScan > 0 &&
        grown < Math.max(MIN_GROWTH, heldAfterLastScan / 8) &&
        !containsAny(fragment, DECISIVE)
      ) {
        return { text: '', calls: [], diagnostics: [] };
      }
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
        return { text, calls: [], diagnostics: [] };
      }
    },
  };
  if (guard === undefined) return blocks;
  // Text a whole-response reading (bare JSON, `<|python_tag|>`, JSON calls in prose) could still read is held.
  return {
    feed(fragment) {
      const scrubbed = blocks.feed(fragment);
      return { ...scrubbed, text: guard.feed(fragment, scrubbed.text) };
    },
    flush() {
      return guard.flush(blocks.flush());
    },
  };
}

function safeHold(run: () => number): number {
  try {
    return run();
  } catch {
    return -1;
  }
}
