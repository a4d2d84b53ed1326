import { findCompositeEnd } from './find-composite-end.js';
import { isPlainObject } from './is-plain-object.js';
import { parseJson } from './parse-json.js';
import { recoverRelaxedObject } from './recover-relaxed-object.js';
import { removeTemplateMarkers } from './template-markers.js';

function parseObject(text: string): Record<string, unknown> | undefined {
  const value = parseJson(text);
  return isPlainObject(value) ? value : undefined;
}

/**
 * Recovers a tool call's arguments object from the raw argument string a provider could not parse
 * (the provider path). Steps, first success wins:
 * 1. remove chat-template markers and parse strictly;
 * 2. parse the first complete leading `{...}` strictly, ignoring what follows it
 *    (`{"a":1}{"a":1}` from a duplicated stream yields `{ a: 1 }`);
 * 3. the conservative object ladder, {@link recoverRelaxedObject}.
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
      const leading = parseObject(unmarked.slice(0, end));
      if (leading !== undefined) return leading;
    }
  }
  return recoverRelaxedObject(trimmed);
}
