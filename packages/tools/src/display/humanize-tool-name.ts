/** Prefixes that integrations put in front of tool names; at most one is stripped. */
const integrationPrefixes = ['composio_', 'mcp_'] as const;

/**
 * Turns a tool name into a label for people: `mcp_read_file` → `Read File`, `send-email` → `Send Email`.
 *
 * Strips one leading `composio_` or `mcp_` prefix (lowercase, as integrations emit it), splits the
 * rest on `_` and `-`, drops empty words and upper-cases the first letter of each word; the other
 * letters keep their case, so acronyms survive (`get_URL` → `Get URL`). Returns `name` unchanged
 * when nothing is left (`mcp_`, `__`, `''`).
 */
export function humanizeToolName(name: string): string {
  const prefix = integrationPrefixes.find((candidate) => name.startsWith(candidate));
  const rest = prefix === undefined ? name : name.slice(prefix.length);
  const words = rest.split(/[_-]+/).filter((word) => word.length > 0);
  if (words.length === 0) {
    return name;
  }
  return words.map(capitalize).join(' ');
}

function capitalize(word: string): string {
  const first = word.codePointAt(0);
  if (first === undefined) {
    return word;
  }
  const firstCharacter = String.fromCodePoint(first);
  return firstCharacter.toUpperCase() + word.slice(firstCharacter.length);
}
