import { JSON_COMPLETE, JSON_GOING, readJsonChar, startJsonPrefix } from './json-prefix-reader.js';
import { looksLikeCall } from './looks-like-call.js';
import type { ProseReadingState } from './prose-reading-state.js';
import { isWhitespace } from './text-scanning.js';

/**
 * @internal Reads scrubbed `text` (whose first character stands at absolute `offset`) from index
 * `from` for JSON in prose, as `stripEmbeddedJsonCalls` reads it: a `{` or `[` is followed while it is
 * still a strict JSON prefix (the guard's `candidate`), and one that closes naming an offered tool
 * holds the rest of the stream. Each character is examined once, except after a break: what
 * follows the break is read again from the held text (as `extractJsonValues` resumes there), at
 * most once per break.
 */
export function readProseJson(guard: ProseReadingState, text: string, offset: number, from: number): void {
  let source = text;
  let sourceOffset = offset;
  for (let index = from; index < source.length && guard.holdFrom === undefined; index++) {
    const at = sourceOffset + index;
    const code = source.charCodeAt(index);
    guard.examined++;
    let candidate = guard.candidate;
    if (candidate === undefined) {
      if (code === 123 || code === 91) {
        candidate = startJsonPrefix(at);
        guard.candidate = candidate;
        guard.candidateHold = Math.max(guard.base, guard.lastNonSpaceEnd);
      } else {
        // Whitespace as the narrative trims it (a no-break space too): held with a candidate after it.
        if (!isWhitespace(code)) guard.lastNonSpaceEnd = at + 1;
        continue;
      }
    }
    const outcome = readJsonChar(candidate, code, at);
    if (outcome === JSON_GOING) continue;
    const base = guard.base;
    const whole = guard.heldText();
    guard.candidate = undefined;
    if (outcome === JSON_COMPLETE) {
      if (looksLikeCall(whole.slice(candidate.open - base, at + 1 - base), guard.knowledge)) {
        guard.holdAllFrom(guard.candidateHold);
        return;
      }
      guard.lastNonSpaceEnd = at + 1;
      continue;
    }
    // Broken: the containers that closed inside are read on their own, and the search resumes at the break.
    for (const [spanStart, spanEnd] of candidate.closed) {
      if (looksLikeCall(whole.slice(spanStart - base, spanEnd - base), guard.knowledge)) {
        guard.holdAllFrom(beforeSpace(whole, base, spanStart));
        return;
      }
    }
    const resume = at > candidate.open ? at : candidate.open + 1;
    guard.lastNonSpaceEnd = beforeSpace(whole, base, resume);
    source = whole;
    sourceOffset = base;
    index = resume - base - 1;
  }
}

/** Where whitespace before absolute `position` starts in `text` (which starts at `base`): it is the narrative's to join with what follows. */
function beforeSpace(text: string, base: number, position: number): number {
  let cut = position;
  while (cut > base && /\s/.test(text.charAt(cut - 1 - base))) cut--;
  return cut;
}
