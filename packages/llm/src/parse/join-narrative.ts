/**
 * @internal Joins narrative parts the way the parser does: each part trimmed, empty parts dropped, the rest
 * joined with a newline. Both `parseToolCalls` and the stream scrubber produce exactly this text.
 */
export function joinNarrative(parts: readonly string[]): string {
  const kept: string[] = [];
  for (const part of parts) {
    const trimmed = part.trim();
    if (trimmed !== '') kept.push(trimmed);
  }
  return kept.join('\n');
}

/** @internal A narrative joined from spans of a source text, with the way back to that text. */
export interface MappedNarrative {
  /** `joinNarrative` of the spans' texts. */
  readonly text: string;
  /**
   * The offset in the source text of the narrative character at `position` (a joining newline maps
   * to the end of the piece before it). Protected regions, computed on the source text, are looked
   * up at this offset: trimming and joining move every narrative position away from its source.
   */
  sourceAt(position: number): number;
}

/**
 * @internal {@link joinNarrative} of `spans` (`[start, end)` in `source`), remembering where each
 * kept piece came from.
 */
export function joinNarrativeSpans(source: string, spans: ReadonlyArray<readonly [number, number]>): MappedNarrative {
  const kept: string[] = [];
  // Per kept piece: where it starts in the narrative, and in the source.
  const narrativeStarts: number[] = [];
  const sourceStarts: number[] = [];
  let length = 0;
  for (const [start, end] of spans) {
    const part = source.slice(start, end);
    const trimmed = part.trim();
    if (trimmed === '') continue;
    if (kept.length > 0) length += 1;
    narrativeStarts.push(length);
    sourceStarts.push(start + (part.length - part.trimStart().length));
    kept.push(trimmed);
    length += trimmed.length;
  }
  const sourceAt = (position: number): number => {
    // The last piece starting at or before `position` (binary search: pieces are in order).
    let low = 0;
    let high = narrativeStarts.length - 1;
    if (high < 0) return position;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((narrativeStarts[middle] ?? 0) <= position) low = middle;
      else high = middle - 1;
    }
    const offset = Math.min(position - (narrativeStarts[low] ?? 0), (kept[low] ?? '').length);
    return (sourceStarts[low] ?? 0) + Math.max(0, offset);
  };
  return { text: kept.join('\n'), sourceAt };
}
