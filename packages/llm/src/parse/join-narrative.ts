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
