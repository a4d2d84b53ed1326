import { findCompositeEnd } from './find-composite-end.js';
import { recoverArgumentsObject } from './recover-arguments-object.js';
import { isFenceInfoCharacter } from './strip-code-fence.js';
import { templateMarkerLength } from './template-markers.js';

/** Skips whitespace, template markers and a fence opener line at the start of `text`. */
function skipLeadingFurniture(text: string): number {
  let index = 0;
  for (;;) {
    while (index < text.length && text.charCodeAt(index) <= 32) index++;
    const markerLength = templateMarkerLength(text, index);
    if (markerLength > 0) {
      index += markerLength;
      continue;
    }
    const fence = text.charCodeAt(index);
    if (
      (fence === 96 || fence === 126) &&
      text.charCodeAt(index + 1) === fence &&
      text.charCodeAt(index + 2) === fence
    ) {
      // A fence opener: the fence run, an optional language tag, spaces and one line break.
      while (text.charCodeAt(index) === fence) index++;
      while (index < text.length && isFenceInfoCharacter(text.charCodeAt(index))) index++;
      while (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9) index++;
      if (text.charCodeAt(index) === 13) index++;
      if (text.charCodeAt(index) === 10) index++;
      continue;
    }
    return index;
  }
}

/**
 * The relaxed-object ladder of `recoverRelaxedObject` (whole input, rungs R0 to R4) plus
 * rung R5: when the whole input is not one object, accepts the first complete object at the start of the input (after whitespace,
 * template markers or a fence opener) and ignores what follows it. Meant for text inside a
 * delimited call, where trailing noise is common.
 *
 * `end` is the index in `raw` just past the consumed object: past the last non-whitespace character
 * when the whole input was recovered, otherwise just past the object's closing brace, so a caller
 * can continue scanning from there. The leading object is delimited by counting braces outside
 * `"`-strings, so an object whose repair would re-quote a mismatched `"` key is found only when it is
 * the whole input. Returns `undefined` when no object is recovered, and for an empty object the
 * text does not write (`{ {`: see `recoverArgumentsObject`).
 */
export function recoverLeadingObject(raw: string): { value: Record<string, unknown>; end: number } | undefined {
  const whole = recoverArgumentsObject(raw);
  if (whole !== undefined) return { value: whole, end: raw.trimEnd().length };
  const start = skipLeadingFurniture(raw);
  if (raw.charCodeAt(start) !== 123) return undefined;
  const end = findCompositeEnd(raw, start);
  if (end < 0) return undefined;
  const value = recoverArgumentsObject(raw.slice(start, end));
  return value === undefined ? undefined : { value, end };
}
