import type { ToolSchema } from '../spec/tool-schema.js';
import { BlockScrubber } from './block-scrubber.js';
import { streamPlainCodes } from './grammars/create-grammars.js';
import type { CallSource, ParsedText } from './parse-types.js';
import { createToolKnowledge } from './scan-context.js';
import { createWholeResponseGuard, type WholeResponseGuard } from './whole-response-guard.js';

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
  return new GuardedScrubber(createToolKnowledge(options.tools, options));
}

/** Characters the guard reads (`{`, `[`, `<`, a marker's `>` or `A`) and those that end or hold a line's layout. */
const GUARD_CHARACTERS = '{[<>A\n\r\t';

/**
 * The block scrubber and the whole-response guard over it. A fragment of plain characters fed
 * while neither holds anything (the common case in prose) is released by {@link feedPlain}: the
 * same steps both take for it, with constant work per fragment beyond the copies of the stream the two keep.
 */
class GuardedScrubber implements StreamScrubber {
  private readonly blocks: BlockScrubber;
  private readonly guard: WholeResponseGuard | undefined;
  /**
   * The ASCII characters (by code) a fragment may be made of for {@link feedPlain}: none that a
   * scan, a held word or the guard reads, and no line break (spaces are the narrative's to hold).
   * `undefined` when there is no such path (p-type tools).
   */
  private readonly plainCodes: Uint8Array | undefined;
  /** The whole stream fed so far, for the guard (which reads it rarely). */
  private readonly fed = (): string => this.blocks.fed();

  constructor(knowledge: ReturnType<typeof createToolKnowledge>) {
    this.guard = createWholeResponseGuard(knowledge);
    this.blocks = new BlockScrubber(knowledge, this.guard !== undefined);
    const plain = streamPlainCodes(knowledge);
    if (plain !== undefined) for (const character of GUARD_CHARACTERS) plain[character.charCodeAt(0)] = 0;
    this.plainCodes = plain;
  }

  feed(fragment: string): ParsedText {
    if (this.isPlain(fragment)) return this.feedPlain(fragment);
    const scrubbed = this.blocks.feed(fragment);
    // The guard holds text and calls a whole-response reading could still replace.
    return this.guard === undefined ? scrubbed : this.guard.feed(fragment, this.fed, scrubbed);
  }

  flush(): ParsedText {
    const fed = this.blocks.fed();
    const scrubbed = this.blocks.flush();
    return this.guard === undefined ? scrubbed : this.guard.flush(fed, scrubbed);
  }

  /** Whether `fragment` may take {@link feedPlain}: nothing is held or part-way, and it has only plain characters. */
  private isPlain(fragment: string): boolean {
    const plain = this.plainCodes;
    const blocks = this.blocks;
    if (plain === undefined || fragment === '' || blocks.buffer !== '' || blocks.quote >= 0) return false;
    if (this.guard !== undefined && !this.guard.isQuiet()) return false;
    for (let index = 0; index < fragment.length; index++) {
      const code = fragment.charCodeAt(index);
      if (code >= 128 || plain[code] === 0) return false;
    }
    return true;
  }

  /**
   * What {@link feed} does with a plain fragment: the block scrubber releases it whole without a
   * scan (`streamHoldWithoutScan` holds nothing of it), and the quiet guard only moves its positions.
   */
  private feedPlain(fragment: string): ParsedText {
    const blocks = this.blocks;
    blocks.narrative.append(fragment);
    blocks.addUnfenced(fragment);
    blocks.previousCode = fragment.charCodeAt(fragment.length - 1);
    const text = blocks.narrative.take();
    this.guard?.passPlain(fragment, text);
    return { text, calls: [], diagnostics: [] };
  }
}
