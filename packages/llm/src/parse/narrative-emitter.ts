import { isWhitespace } from './text-scanning.js';

/**
 * @internal Writes narrative incrementally so the concatenated output equals
 * `joinNarrative(parts)`: leading whitespace of a part is dropped, trailing whitespace is held until
 * more text of the same part arrives (and dropped when the part ends), and a `\n` goes between
 * non-empty parts. One class (not closures per stream), so one optimised `append` serves every stream.
 */
export class NarrativeEmitter {
  private output = '';
  private started = false;
  private inPart = false;
  private held = '';

  /** Appends text to the current part. */
  append(text: string): void {
    // Within a part, text ending in a non-space joins what was held: no trimming to do.
    if (this.inPart && text !== '' && !isWhitespace(text.charCodeAt(text.length - 1))) {
      this.output += this.held + text;
      this.held = '';
      return;
    }
    let piece = text;
    if (!this.inPart) {
      piece = piece.trimStart();
      if (piece === '') return;
      if (this.started) this.output += '\n';
      this.started = true;
      this.inPart = true;
    }
    const body = piece.trimEnd();
    if (body === '') {
      this.held += piece;
      return;
    }
    this.output += this.held + body;
    this.held = piece.slice(body.length);
  }

  /** Ends the current part (a block was removed here). */
  endPart(): void {
    this.held = '';
    this.inPart = false;
  }

  /** Returns what is ready to show and clears it. */
  take(): string {
    const ready = this.output;
    this.output = '';
    return ready;
  }

  /** Forgets everything (ready for a new stream). */
  reset(): void {
    this.output = '';
    this.started = false;
    this.inPart = false;
    this.held = '';
  }
}
