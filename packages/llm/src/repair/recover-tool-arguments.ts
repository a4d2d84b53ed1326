import { findCompositeEnd } from './find-composite-end.js';
import { isPlainObject } from './is-plain-object.js';
import { parseJson } from './parse-json.js';
import { recoverArgumentsObject } from './recover-arguments-object.js';
import { removeTemplateMarkers } from './template-markers.js';

function parseObject(text: string): Record<string, unknown> | undefined {
  const value = parseJson(text);
  return isPlainObject(value) ? value : undefined;
}

/**
 * True when `rest`, the text after a complete leading object `head`, holds nothing a repair that
 * keeps only `head` would lose: whitespace, stray `}` / `]` closers, and exact repeats of `head`.
 */
function losesNothing(head: string, rest: string): boolean {
  let at = 0;
  while (at < rest.length) {
    const code = rest.charCodeAt(at);
    if (code === 32 || code === 10 || code === 13 || code === 9 || code === 125 || code === 93) {
      at += 1;
    } else if (rest.startsWith(head, at)) {
      at += head.length;
    } else {
      return false;
    }
  }
  return true;
}

/**
 * Recovers a tool call's arguments object from the raw argument string a provider could not parse
 * (the provider path). Steps, first success wins:
 * 1. remove chat-template markers and parse strictly;
 * 2. parse the first complete leading `{...}` strictly when what follows it loses nothing: only
 *    stray closing brackets, or exact repeats of the same object (`{"a":1}{"a":1}` from a
 *    duplicated stream yields `{ a: 1 }`). Anything else after it (`{"q": "t"}, "limit": 10}`,
 *    a second different object, prose) is content a repair would drop, so this rung refuses;
 * 3. the conservative object ladder, `recoverRelaxedObject` (which refuses trailing noise too),
 *    where an empty object counts only when the text writes one (`{}`, `{,}`, `{{}}`, never `{`
 *    or `{{`: see `recoverArgumentsObject`).
 *
 * Markers are removed only outside string literals (a marker inside a string value is data); a
 * textual strip could only differ by rewriting string contents. Returns `undefined` when nothing
 * yields an object, including for valid JSON that is not an object; never throws.
 */
export function recoverToolArguments(raw: string): Record<string, unknown> | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return undefined;
  const unmarked = removeTemplateMarkers(trimmed).trim();
  const direct = parseObject(unmarked);
  if (direct !== undefined) return direct;
  if (unmarked.charCodeAt(0) === 123) {
    const end = findCompositeEnd(unmarked, 0);
    if (end > 0 && end < unmarked.length) {
      const head = unmarked.slice(0, end);
      const leading = parseObject(head);
      if (leading !== undefined && losesNothing(head, unmarked.slice(end))) return leading;
    }
  }
  return recoverArgumentsObject(trimmed);
}
