import { escapeRegExp } from './text-scanning.js';

/** Words searched one regular-expression pass at a time, by the set still unfound (compiled once per set). */
const unions = new Map<string, RegExp>();

function unionOf(words: readonly string[]): RegExp {
  const key = words.join('\u0000');
  let union = unions.get(key);
  if (union === undefined) {
    union = new RegExp(words.map(escapeRegExp).join('|'), 'g');
    unions.set(key, union);
  }
  return union;
}

/**
 * @internal Which of `words` occur in `text`, in one left-to-right pass: a union of the words still
 * unfound is searched from the last hit, and each hit drops its word from the union. A grammar's
 * gate asks about several rare words, and one native search for each scans the whole text that
 * many times when they are absent (the usual case); the union scans it once.
 */
export function findPresentWords(text: string, words: readonly string[]): Set<string> {
  const present = new Set<string>();
  let remaining = words;
  let from = 0;
  while (remaining.length > 0) {
    const union = unionOf(remaining);
    union.lastIndex = from;
    const match = union.exec(text);
    if (match === null) break;
    present.add(match[0]);
    remaining = remaining.filter((word) => !present.has(word));
    from = match.index;
  }
  return present;
}
