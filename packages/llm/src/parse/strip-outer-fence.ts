/**
 * @internal Removes one fenced-code wrapper (```` ```lang ```` … ```` ``` ````, or `~~~`) around
 * the whole of `text` and returns the trimmed inside. An opening fence line without a closing
 * fence is still removed (truncated output); text that does not start with a fence is only trimmed.
 */
export function stripOuterFence(text: string): string {
  const trimmed = text.trim();
  const fence = trimmed.startsWith('```') ? '`' : trimmed.startsWith('~~~') ? '~' : '';
  if (fence === '') return trimmed;
  let runEnd = 0;
  while (trimmed[runEnd] === fence) runEnd++;
  const newline = trimmed.indexOf('\n', runEnd);
  if (newline < 0) return trimmed;
  let bodyEnd = trimmed.length;
  if (trimmed.endsWith(fence.repeat(3)) && bodyEnd - 3 > newline) {
    while (bodyEnd > newline + 1 && trimmed[bodyEnd - 1] === fence) bodyEnd--;
  }
  return trimmed.slice(newline + 1, bodyEnd).trim();
}
