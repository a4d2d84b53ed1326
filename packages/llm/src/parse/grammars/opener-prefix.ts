/**
 * @internal Where a stream must hold the end of `text` because it is a non-empty proper prefix of
 * one of a grammar's `openers` (the text stopped part-way through one, a lone `<` included): the
 * start of the longest such tail at or after `floor`, or -1. Every grammar's `holdFrom` asks this
 * of all its openers, so none can miss a prefix its own search would not look at. Pass lowered
 * text and lowercase openers to fold case. Cost: the length of the longest opener times the number
 * of openers whose first character matches, per call.
 */
export function openerPrefixStart(text: string, floor: number, openers: readonly string[]): number {
  let longest = 0;
  for (const opener of openers) if (opener.length > longest) longest = opener.length;
  // The earliest start gives the longest tail: walk from the earliest start a proper prefix allows.
  for (let index = Math.max(floor, 0, text.length - longest + 1); index < text.length; index++) {
    const code = text.charCodeAt(index);
    const rest = text.length - index;
    for (const opener of openers) {
      if (opener.charCodeAt(0) === code && rest < opener.length && opener.startsWith(text.slice(index))) return index;
    }
  }
  return -1;
}

/** @internal The earlier of two hold starts, either -1 when nothing is held. */
export function earlierHold(first: number, second: number): number {
  if (first < 0) return second;
  if (second < 0) return first;
  return Math.min(first, second);
}
