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
}

/**
 * @internal Scans `text` left to right. Each grammar reports its next block (answers are cached
 * until the cursor passes them, which keeps the pass linear); the earliest start wins and ties go
 * to grammar order. Blocks starting inside a protected region are skipped. Calls and diagnostics
 * come out in text order.
 */
export function scanText(text: string, grammars: readonly Grammar[], regions: ProtectedRegions): ScanResult {
  const parts: Array<readonly [number, number]> = [];
  const calls: RawCall[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  const cache: Array<Block | undefined | null> = grammars.map(() => null);
  const disabled = grammars.map(() => false);
  let from = 0;
  let partStart = 0;
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
      return { parts, calls, diagnostics, pending: start };
    }
    const source = grammars[bestIndex]?.source ?? 'tagged_json';
    if (
      best.kind !== 'unterminated' &&
      best.kind !== 'pending' &&
      regions.undecidedCallsFrom >= 0 &&
      best.start >= regions.undecidedCallsFrom
    ) {
      parts.push([partStart, best.start]);
      return { parts, calls, diagnostics, pending: best.start };
    }
    if (best.kind === 'pending') {
      parts.push([partStart, best.start]);
      return { parts, calls, diagnostics, pending: best.start };
    }
    if (best.kind === 'unterminated') {
      diagnostics.push({ kind: 'unterminated_block', source });
    } else {
      parts.push([partStart, best.start]);
      partStart = best.end;
      if (best.kind === 'calls') {
        calls.push(...best.calls);
        for (const tool of best.dropped ?? []) diagnostics.push({ kind: 'call_dropped', source, tool });
      } else if (best.kind === 'malformed')
        diagnostics.push({ kind: 'malformed_block', source, bodyChars: best.bodyChars });
    }
    from = Math.max(best.end, best.start + 1);
    if (from > text.length) break;
  }
  parts.push([partStart, Math.max(partStart, text.length)]);
  return { parts, calls, diagnostics, pending: -1 };

  function nextUnprotected(index: number, start: number): Block | undefined {
    const grammar = grammars[index];
    if (grammar === undefined || disabled[index]) return undefined;
    try {
      let block = grammar.findNext(start);
      while (block !== undefined) {
        const end = regions.endAt(block.start);
        if (end < 0) return block;
        block = grammar.findNext(end);
      }
      return undefined;
    } catch {
      disabled[index] = true;
      return undefined;
    }
  }
}
