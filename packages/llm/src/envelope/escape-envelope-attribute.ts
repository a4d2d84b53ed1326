const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const ENTITIES: readonly (readonly [string, string])[] = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&quot;', '"'],
];

/** Escapes `&`, `<`, `>` and `"` in a `<tool_result>` attribute value; every other character is kept. */
export function escapeEnvelopeAttribute(value: string): string {
  let output = '';
  let copied = 0;
  for (let index = 0; index < value.length; index++) {
    const replacement = ESCAPES[value.charAt(index)];
    if (replacement === undefined) continue;
    output += value.slice(copied, index) + replacement;
    copied = index + 1;
  }
  return copied === 0 ? value : output + value.slice(copied);
}

/** Reverses {@link escapeEnvelopeAttribute}; any other `&` sequence is left as written. */
export function unescapeEnvelopeAttribute(value: string): string {
  let output = '';
  let copied = 0;
  let index = value.indexOf('&');
  while (index >= 0) {
    const entity = ENTITIES.find(([written]) => value.startsWith(written, index));
    if (entity !== undefined) {
      output += value.slice(copied, index) + entity[1];
      copied = index + entity[0].length;
    }
    index = value.indexOf('&', index + 1);
  }
  return copied === 0 ? value : output + value.slice(copied);
}
