import type { ProseReadingState } from './prose-reading-state.js';
import { isWhitespace } from './text-scanning.js';
import { readProseMarker } from './whole-reply-openers.js';

/**
 * @internal Reads scrubbed `text` (whose first character stands at absolute `offset`) for a
 * Functionary `>>>` boundary or a Command R+ `Action:` line after prose (`readProseMarker`): from a
 * `>` or a line-start `A`, a marker is followed while it may still become one (the guard's `marker`),
 * and one that opens holds the rest of the stream. A marker that cannot be one is read again from
 * its second character (markers are short: a recipient no longer than an offered name, an action line).
 */
export function readProseMarkers(guard: ProseReadingState, text: string, offset: number): void {
  for (let index = 0; index < text.length && !guard.markerOpened; index++) {
    const character = text.charAt(index);
    const marker = guard.marker;
    if (marker !== undefined) {
      // Counted: a marker's characters are read again when it closes (finding its start is a search).
      guard.examined++;
      marker.text += character;
      const state = readProseMarker(marker.text, guard.knowledge);
      if (state === 'undecided') continue;
      guard.marker = undefined;
      if (state === 'opened') {
        guard.markerOpened = true;
        guard.holdAllFrom(marker.hold);
        return;
      }
      // Not a marker: read again from its second character.
      const again = marker.text.slice(1);
      const againAt = offset + index + 1 - again.length;
      guard.lineStart = false;
      guard.markerSpaceFrom = againAt;
      readProseMarkers(guard, again, againAt);
      continue;
    }
    if (character === '>' || (guard.lineStart && character === 'A')) {
      guard.marker = { text: character, hold: Math.max(guard.base, guard.markerSpaceFrom) };
      continue;
    }
    if (character === '\n') guard.lineStart = true;
    else if (character !== ' ' && character !== '\t') guard.lineStart = false;
    if (!isWhitespace(text.charCodeAt(index))) guard.markerSpaceFrom = offset + index + 1;
  }
}

/**
 * @internal Whether `text` has a `>` or a line-start `A` (after spaces or tabs; `lineStart` says
 * whether `text` begins at one), which may start a whole-reply marker after prose (`readProseMarker`).
 */
export function mayOpenMarker(text: string, lineStart: boolean): boolean {
  if (text.indexOf('>') >= 0) return true;
  for (let at = text.indexOf('A'); at >= 0; at = text.indexOf('A', at + 1)) {
    let before = at - 1;
    while (before >= 0 && (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9)) before--;
    if (before < 0 ? lineStart : text.charCodeAt(before) === 10) return true;
  }
  return false;
}
