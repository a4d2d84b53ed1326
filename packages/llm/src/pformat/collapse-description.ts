/**
 * @internal Puts a description on one line: every run of whitespace (newlines included) becomes one
 * space, and the ends are trimmed. Non-strings give the empty string.
 */
export function collapseDescription(description: unknown): string {
  if (typeof description !== 'string') return '';
  return description.replace(/\s+/g, ' ').trim();
}
