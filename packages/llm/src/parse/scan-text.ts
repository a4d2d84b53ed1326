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
  /**
   * Stream mode: the text from `pending` is held for a quotation in prose (or a last `'`) that
   * more text decides, not for a block: any character may decide it.
   */
  readonly pendingQuote?: boolean;
  /**
   * Stream mode: the text from `pending` is a complete block held until a reasoning token decides
   * whether the text began in reasoning (see `ProtectedRegions.undecidedCallsFrom`): only such a
   * token, or the end of the text, can release any of it.
   */
  readonly pendingReasoning?: boolean;
  /**
   * Stream mode: the text from `pending` is a block that has begun and whose grammar names what can
   * decide it (the block's `decidedBy`, with `>`, `]` and a backtick, which end the tokens that can
   * open or close a protected region): until one of these characters arrives, more text leaves the
   * scan's answer as it is.
   */
  readonly pendingDecidedBy?: string;
  /** Whether a run of blocks was left as text because it was quoted in prose. */
  readonly quoted: boolean;
  /**
   * The closing mark of the quotation open in prose just before `position` (-1 when none), for any
   * `position` up to `pending` (or the end of the last part): a stream passes it to the scan of the
   * text from there (`quoteBefore`), so a quotation mark is read once, and the text after it is
   * released while no block inside the quotation waits for its closing mark.
   */
  quoteAt(position: number): number;
  /** The span of the last call block taken, if any. */
  readonly lastCallSpan: readonly [number, number] | undefined;
  /**
   * The end of a leading reasoning region extended past a call that held its first closer in a
   * value (see below), or -1: nothing before it is a call, for any later reading either.
   */
  readonly reasoningUntil?: number;
  /** The spans of the call blocks taken (complete parse; undone quotations excluded). */
  readonly callBlocks?: ReadonlyArray<readonly [number, number]>;
  /**
   * When the text has protected regions: the prior call spans passed in, then the spans of the call
   * blocks this scan took (undone quotations excluded), in text order.
   */
  readonly callSpans?: ReadonlyArray<readonly [number, number]>;
}

/**
 * @internal Scans `text` left to right. Each grammar reports its next block (answers are cached
 * until the cursor passes them, which keeps the pass linear); the earliest start wins and ties go
 * to grammar order. Blocks starting inside a protected region are skipped, and a run of blocks
 * quoted in prose is undone (its text stays narrative). Calls and diagnostics come out in text order. `complete` is false for
 * a stream's buffer that may still grow; `previousCode` the code unit just before `text` (-1 at the
 * start); `priorCallSpans` the spans (relative to `text`, so negative; in text order) of call blocks
 * an earlier scan of the stream took that a region still open may have begun in (the last one, and
 * those a region began inside); `quoteBefore` the closing mark of a quotation in prose an earlier
 * scan of the stream left open just before `text` (`ScanResult.quoteAt`), -1 when none.
 */
export function scanText(
  text: string,
  grammars: readonly Grammar[],
  regions: ProtectedRegions,
  complete = true,
  previousCode = -1,
  priorCallSpans: ReadonlyArray<readonly [number, number]> = [],
  quoteBefore = -1,
): ScanResult {
  /** Where the quotation state changes in the prose read, as flat `[position, closing mark]` pairs. */
  const quoteChanges: number[] = [];
  let quoteFirst = quoteBefore;
  const quoteAt = (position: number): number => quotationAt(quoteChanges, quoteFirst, position);
  const parts: Array<readonly [number, number]> = [];
  const calls: RawCall[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  const cache: Array<Block | undefined | null> = grammars.map(() => null);
  const disabled = grammars.map(() => false);
  // The leading region's closer (`</think>`) is void when a block spans it: it was written in an
  // argument value, so nothing before it was reasoning.
  // A block still arriving over that closer decides nothing yet: the stream holds the region.
  const leading = regions.leadingEnd < 0 ? [] : grammars.map((grammar) => spanOverLeadingCloser(grammar, regions));
  const spans = leading.map((found) => found.span);
  let leadingVoid = spans.some((span) => span?.kind === 'calls');
  // A `</think>` inside a call value does not change the reasoning region: when a later closer
  // follows the blocks that span it, the region runs to that closer (everything before it is
  // reasoning, the call holding the value included); only with no later closer was the first one
  // content. A stream cannot tell until the text is complete: it holds.
  let reasoningUntil = -1;
  if (leadingVoid) {
    const spanEnd = Math.max(...spans.map((span) => (span?.kind === 'calls' ? span.end : -1)));
    LEADING_CLOSER.lastIndex = spanEnd;
    const later = LEADING_CLOSER.exec(text);
    if (later !== null) {
      leadingVoid = false;
      reasoningUntil = later.index + later[0].length;
    } else if (!complete)
      return { parts: [[0, 0]], calls, diagnostics, pending: 0, quoted: false, lastCallSpan: undefined, quoteAt };
  }
  // Reasoning the scan decided (to a closer after the blocks spanning a leading one) is no prose: a
  // quotation mark there opens nothing, and none is open after it.
  if (reasoningUntil >= 0) quoteFirst = -1;
  const undecided = leadingVoid ? undefined : spans.find((span) => span?.kind === 'pending');
  let from = 0;
  let partStart = 0;
  let quoted = false;
  /** The blocks taken inside an open quotation in prose, and what to undo if it closes. */
  let run: QuotedRun | undefined;
  /** The closing mark of the quotation open in the prose read so far (-1 when none). */
  let quoteOpen = quoteFirst;
  /** A stream's last character when it is a `'` or `’` the next character decides, else -1. */
  let markUndecided = -1;
  /** How far the prose has been read for quotation marks (blocks are skipped). */
  let quoteCursor = Math.max(0, reasoningUntil);
  /** Every call block taken, as `[start, end)` (for the whole-response readings). */
  const callBlocks: Array<readonly [number, number]> = [];
  /** The spans of the call blocks taken so far. */
  const callSpans: Array<readonly [number, number]> = [...priorCallSpans];
  let lastCallStart = -1;
  let lastCallEnd = -1;
  /** Whether an undone quotation dropped a call span a region began inside (cached answers may have skipped that region). */
  let staleRegions = false;
  /** Where a started call that never closed begins (complete text): its text is not narrative. */
  let ownedFrom = -1;
  /**
   * The first block opened outside a quotation that never closed (its opener, where its body
   * starts, its grammar): it owns everything to the end of the text, so no block after it is a
   * call of its own (see `CUT_OFF_OWNS_TO_END`).
   */
  let open: { readonly start: number; readonly bodyStart: number; readonly source: RawCall['source'] } | undefined;
  const lastCall = (): readonly [number, number] | undefined =>
    lastCallEnd < 0 ? undefined : [lastCallStart, lastCallEnd];
  if (undecided !== undefined) {
    // Only blocks inside the region may change (to calls, if the closer turns out to be content):
    // the text before the line of the first of them is narrative either way, and is released.
    const first = Math.min(...leading.map((found) => found.first));
    const held = first <= 0 ? 0 : text.lastIndexOf('\n', first - 1) + 1;
    walkQuotes(held);
    return { parts: [[0, held]], calls, diagnostics, pending: held, quoted: false, lastCallSpan: undefined, quoteAt };
  }
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
    walkQuotes(best.start);
    if (staleRegions) {
      // A quotation undid a call a region began inside: that region protects again, and the
      // answers that skipped it (this block among them) are read again.
      staleRegions = false;
      cache.fill(null);
      continue;
    }
    if (regions.undecidedFrom >= 0 && best.start >= regions.undecidedFrom) {
      const start = heldFrom(Math.max(regions.undecidedFrom, from));
      parts.push([partStart, start]);
      return { parts, calls, diagnostics, pending: start, quoted, lastCallSpan: lastCall(), callSpans, quoteAt };
    }
    const source = grammars[bestIndex]?.source ?? 'tagged_json';
    if (
      best.kind !== 'unterminated' &&
      best.kind !== 'pending' &&
      regions.undecidedCallsFrom >= 0 &&
      best.start >= regions.undecidedCallsFrom
    ) {
      const waiting = regions.reasoningUndecided && quoteOpen < 0;
      const start = heldFrom(best.start);
      parts.push([partStart, start]);
      return {
        parts,
        calls,
        diagnostics,
        pending: start,
        quoted,
        lastCallSpan: lastCall(),
        callSpans,
        quoteAt,
        pendingReasoning: waiting,
      };
    }
    if (best.kind === 'pending') {
      // A block still arriving (inside an open quotation, held with the quotation's blocks before it).
      const start = heldFrom(best.start);
      parts.push([partStart, start]);
      const pendingDecidedBy = decidedBy(best);
      return {
        parts,
        calls,
        diagnostics,
        pending: start,
        quoted,
        lastCallSpan: lastCall(),
        callSpans,
        quoteAt,
        pendingDecidedBy,
      };
    }
    // CUT_OFF_OWNS_TO_END: a block after an opener that never closed is inside that block (its
    // closer would have come first), so its calls are part of the cut-off call and never run: a
    // complete text reads one invalid, partial call (named after the first call inside, when the
    // opener's own body did not start like a call) and no text from the opener on; a stream holds
    // from the opener, so it releases neither the calls nor the text before the end decides.
    if (open !== undefined && best.kind !== 'unterminated') {
      const [inner] = best.kind === 'calls' ? best.calls : [];
      if (ownedFrom < 0 && inner !== undefined) {
        parts.push([partStart, open.start]);
        partStart = open.start;
        ownedFrom = open.start;
        calls.push(cutOff(inner.name, text.slice(open.bodyStart), open.source));
      }
      from = Math.max(best.end, best.start + 1);
      quoteCursor = Math.max(quoteCursor, best.end);
      if (from > text.length) break;
      continue;
    }
    // Quoted markup: blocks inside a quotation in prose (a quotation mark opened before them and
    // closed after them on the same line, with only text around) are a quotation, not calls: the
    // same rule for every grammar. The quotation's blocks are taken as blocks are, and undone when
    // its closing mark comes before the line ends (see `walkQuotes`).
    if (run === undefined && quoteOpen >= 0 && best.kind !== 'unterminated') {
      run = {
        start: best.start,
        end: best.start,
        closer: quoteOpen,
        parts: parts.length,
        partStart,
        calls: calls.length,
        diagnostics: diagnostics.length,
        callSpans: callSpans.length,
        callBlocks: callBlocks.length,
        lastCallStart,
        lastCallEnd,
      };
    }
    // An opener followed by the start of a call body (a name and its argument list) that never
    // closes: the call owns everything from its opener to the next block (or the end). A complete
    // text reads it as an invalid, partial call and never shows it as text; a stream holds it.
    const cut =
      best.kind === 'unterminated' && run === undefined && ownedFrom < 0
        ? cutOffCall(text, best.end, source)
        : undefined;
    // A stream holds from any opener that has not closed yet (outside a quotation): whatever comes
    // after it may be inside it (see CUT_OFF_OWNS_TO_END), so nothing after it is released early.
    if (best.kind === 'unterminated' && run === undefined && !complete) {
      const start = heldFrom(best.start);
      parts.push([partStart, start]);
      return { parts, calls, diagnostics, pending: start, quoted, lastCallSpan: lastCall(), callSpans, quoteAt };
    }
    if (best.kind === 'unterminated') {
      diagnostics.push({ kind: 'unterminated_block', source });
      if (run === undefined) open ??= { start: best.start, bodyStart: best.end, source };
      if (cut !== undefined) {
        parts.push([partStart, best.start]);
        partStart = best.start;
        ownedFrom = best.start;
        calls.push(cut);
      }
    } else {
      parts.push([partStart, best.start]);
      partStart = best.end;
      if (best.kind === 'calls') {
        lastCallStart = best.start;
        lastCallEnd = best.end;
        callBlocks.push([best.start, best.end]);
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
    if (run !== undefined && best.kind !== 'unterminated') run.end = best.end;
    // A block's own text holds no quotation marks of the prose around it.
    if (best.kind !== 'unterminated') quoteCursor = Math.max(quoteCursor, best.end);
    if (from > text.length) break;
  }
  // A stream's text from where a grammar holds a partial block is not prose yet: not read for marks.
  let proseEnd = text.length;
  if (!complete) {
    for (const grammar of grammars) {
      const hold = safeHold(grammar, partStart);
      if (hold >= partStart && hold < proseEnd) proseEnd = hold;
    }
  }
  walkQuotes(proseEnd);
  // A stream whose quotation holds blocks and is still open on its last line cannot tell yet whether
  // they are quoted: it holds them, from the first (the text before them is narrative either way,
  // and the next scan starts inside the quotation). A last `'` or `’` is held until the next
  // character says whether it opens one.
  if ((run !== undefined || markUndecided >= 0) && !complete) {
    const start = heldFrom(Math.max(markUndecided, partStart));
    parts.push([partStart, start]);
    return {
      parts,
      calls,
      diagnostics,
      pending: start,
      quoted,
      lastCallSpan: lastCall(),
      callSpans,
      quoteAt,
      pendingQuote: true,
    };
  }
  if (ownedFrom >= 0) partStart = text.length;
  parts.push([partStart, Math.max(partStart, text.length)]);
  return {
    parts,
    calls,
    diagnostics,
    pending: -1,
    quoted,
    lastCallSpan: lastCall(),
    callSpans,
    quoteAt,
    reasoningUntil,
    callBlocks,
  };

  /**
   * Where a stream holding from `position` must hold from: the first block taken inside the open
   * quotation (those blocks are undone), which only its closing mark or the line's end decides.
   */
  function heldFrom(position: number): number {
    if (run === undefined) return position;
    const start = Math.min(position, run.start);
    undoRun(run);
    run = undefined;
    return start;
  }

  /**
   * Reads the prose up to `to` for quotation marks: a line end closes any quotation (its blocks stay
   * calls), a closing mark undoes the blocks taken inside it. Linear: each character once.
   */
  function walkQuotes(to: number): void {
    for (let index = quoteCursor; index < to; index++) {
      const code = text.charCodeAt(index);
      // A stream's last `'` or `’` is undecided (apostrophe or quotation mark?) until the next
      // character arrives: the walk stops before it and the stream holds from it.
      if (!complete && index === text.length - 1 && (code === 0x27 || code === 0x2019)) {
        markUndecided = index;
        quoteCursor = index;
        return;
      }
      if (code === 10) {
        run = undefined;
        if (quoteOpen >= 0) quoteChanges.push(index, -1);
        quoteOpen = -1;
      } else if (quoteOpen >= 0) {
        if (code === quoteOpen && closesQuote(code, text.charCodeAt(index + 1))) {
          if (run !== undefined) {
            undoRun(run);
            quoted = true;
            run = undefined;
          }
          quoteChanges.push(index, -1);
          quoteOpen = -1;
        }
      } else if (code < 0x80 ? code === 0x22 || code === 0x27 : true) {
        quoteOpen = quoteCloser(
          code,
          index > 0 ? text.charCodeAt(index - 1) : previousCode,
          text.charCodeAt(index + 1),
        );
        if (quoteOpen >= 0) quoteChanges.push(index, quoteOpen);
      }
    }
    if (to > quoteCursor) quoteCursor = to;
  }

  /** Undoes what a quoted run added: its blocks' text is narrative again, their calls are dropped. */
  function undoRun(quotedRun: QuotedRun): void {
    parts.length = quotedRun.parts;
    partStart = quotedRun.partStart;
    calls.length = quotedRun.calls;
    diagnostics.length = quotedRun.diagnostics;
    for (let index = quotedRun.callSpans; index < callSpans.length && !staleRegions; index++) {
      const span = callSpans[index];
      if (span !== undefined && regions.opensWithin(span[0], span[1])) staleRegions = true;
    }
    callSpans.length = quotedRun.callSpans;
    callBlocks.length = quotedRun.callBlocks;
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
      let block = grammar.findNext(Math.max(start, reasoningUntil));
      while (block !== undefined) {
        // From an undecided point on (a stream's last line or call token), nothing is settled yet.
        if (regions.undecidedFrom >= 0 && block.start >= regions.undecidedFrom) return block;
        const end = regions.endAt(block.start);
        const voided =
          end >= 0 &&
          ((leadingVoid && block.start < regions.leadingEnd && !regions.protectedBesidesLeading(block.start)) ||
            openedInCall(regionStart(block.start)));
        if (end >= 0 && !voided) {
          // Past the region that protects the block, an outer one opened inside a call (void) may
          // run on: look again from the inner region's end, where the next block is judged anew.
          const inner = regions.innermostEnd(block.start);
          const past = inner > block.start && inner < end ? inner : end;
          // A region still open at an undecided point may yet end before it: look again from there.
          const undecided = regions.undecidedFrom;
          block = grammar.findNext(undecided > block.start && undecided < past ? undecided : past);
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

/**
 * The characters that can end a token opening or closing a protected region before a held block
 * (`</think>`, `[/THINK]`, a backtick of inline code): with the grammar's own, all that can decide it.
 */
const REGION_DECIDING = '>]`';

/** What can decide a pending block: its grammar's `decidedBy` and {@link REGION_DECIDING}; undefined: not said. */
function decidedBy(block: Block & { readonly kind: 'pending' }): string | undefined {
  return block.decidedBy === undefined ? undefined : block.decidedBy + REGION_DECIDING;
}

/** A closer that ends a region the prompt opened (`</think>`, `</thinking>`, `[/THINK]`), any case. */
const LEADING_CLOSER = /<\/think(?:ing)?>|\[\/think\]/gi;

/**
 * The closing quotation mark for an opening one: `"…"`, `'…'`, `“…”`, `‘…’`, `«…»`, `「…」`; else -1.
 * A `'` or `’` between letters or digits is an apostrophe (`I'll`), and a `'` after one opens
 * nothing (`models'`), so neither is a quotation.
 */
function quoteCloser(code: number, before: number, after: number): number {
  switch (code) {
    case 0x22:
      return 0x22;
    case 0x27:
      return isWordCode(before) || isSpaceCode(after) ? -1 : 0x27;
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

/**
 * The closing mark of the quotation open just before `position`: the last of `changes` (flat
 * `[position, closing mark]` pairs in text order) before it, else `first` (-1 when none is open).
 */
function quotationAt(changes: readonly number[], first: number, position: number): number {
  for (let index = changes.length - 2; index >= 0; index -= 2) {
    if ((changes[index] ?? 0) < position) return changes[index + 1] ?? -1;
  }
  return first;
}

/** Whether a closing mark `code` followed by `after` closes a quotation (an apostrophe does not). */
function closesQuote(code: number, after: number): boolean {
  return (code !== 0x27 && code !== 0x2019) || !isWordCode(after);
}

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 0x7f;
}

function isSpaceCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || Number.isNaN(code);
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
  readonly callBlocks: number;
  readonly lastCallStart: number;
  readonly lastCallEnd: number;
}

/**
 * `span`: the first of `grammar`'s blocks starting inside the leading reasoning region that runs
 * past that region's end: a call block holds the closer that ended the region (`</think>`) in an
 * argument value, so that closer is content; a block still arriving (stream) may turn out to.
 * `first`: where the first of its blocks in that region (outside other regions) starts, the only
 * text such a closer could turn into calls (`Infinity` when none comes before `span`).
 */
function spanOverLeadingCloser(grammar: Grammar, regions: ProtectedRegions): { span?: Block; first: number } {
  const leadingEnd = regions.leadingEnd;
  let first = Number.POSITIVE_INFINITY;
  try {
    for (let block = grammar.findNext(0); block !== undefined && block.start < leadingEnd; ) {
      const counts = !regions.protectedBesidesLeading(block.start);
      if (counts && block.start < first) first = block.start;
      if (counts && ((block.kind === 'calls' && block.end > leadingEnd) || block.kind === 'pending'))
        return { span: block, first };
      block = grammar.findNext(Math.max(block.start + 1, block.end));
    }
  } catch {
    return { first: 0 };
  }
  return { first };
}

function safeHold(grammar: Grammar, floor: number): number {
  try {
    return grammar.holdFrom(floor);
  } catch {
    return -1;
  }
}

/**
 * The start of a call body: `{"name":"x"` (JSON), or a name followed by its argument list (`x(`,
 * `x({`, `x[` of the code and P-Format grammars). Prose after an opener (`the <tool_call> tag`) is not.
 */
const CUT_OFF_BODY = /^\s*(?:\{\s*"name"\s*:\s*"([A-Za-z_][\w.-]{0,63})|([A-Za-z_][\w.-]{0,63})\s*[([{])/;

/**
 * The invalid, partial call of a block whose opener (ending at `bodyStart`) never closed, when its
 * body starts like a call (see {@link CUT_OFF_BODY}); admission answers it with an error, never
 * repairs or runs it. `undefined` when the body does not start like a call.
 */
function cutOffCall(text: string, bodyStart: number, source: RawCall['source']): RawCall | undefined {
  const match = CUT_OFF_BODY.exec(text.slice(bodyStart, bodyStart + 160));
  const name = match?.[1] ?? match?.[2];
  if (name === undefined) return undefined;
  return cutOff(name, text.slice(bodyStart), source);
}

/** An invalid, partial call named `name` whose block (body `raw`) was cut off before it closed. */
function cutOff(name: string, raw: string, source: RawCall['source']): RawCall {
  return {
    name,
    arguments: {},
    source,
    invalid: { raw, reason: 'the call was cut off before its block closed', partial: true },
  };
}
