import { isWhitespace } from './text-scanning.js';

/**
 * @internal Writes narrative incrementally so the concatenated output equals
 * `joinNarrative(parts)`: leading whitespace of a part is dropped, trailing whitespace is held until
 * more text of the same part arrives (and dropped when the part ends), and a `\n` goes between
 * non-empty parts.
 */
export interface NarrativeEmitter {
  /** Appends text to the current part. */
  append(text: string): void;
  /** Ends the current part (a block was removed here). */
  endPart(): void;
  /** Returns what is ready to show and clears it. */
  take(): string;
  /** Forgets everything (ready for a new stream). */
  reset(): void;
}

/** @internal Creates a {@link NarrativeEmitter}. */
export function createNarrativeEmitter(): NarrativeEmitter {
  let output = '';
  let started = false;
  let inPart = false;
  let held = '';
  return {
    append(text) {
      // Within a part, text ending in a non-space joins what was held: no trimming to do.
      if (inPart && text !== '' && !isWhitespace(text.charCodeAt(text.length - 1))) {
        output += held + text;
        held = '';
        return;
      }
      let piece = text;
      if (!inPart) {
        piece = piece.trimStart();
        if (piece === '') return;
        if (started) output += '\n';
        started = true;
        inPart = true;
      }
      const body = piece.trimEnd();
      if (body === '') {
        held += piece;
        return;
      }
      output += held + body;
      held = piece.slice(body.length);
    },
    endPart() {
      held = '';
      inPart = false;
    },
    take() {
      const ready = output;
      output = '';
      return ready;
    },
    reset() {
      output = '';
      started = false;
      inPart = false;
      held = '';
    },
  };
}
