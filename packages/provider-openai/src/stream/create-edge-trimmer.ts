/** Drops whitespace at both ends of a text that arrives in pieces. @internal */
export interface EdgeTrimmer {
  /** Adds the next piece; returns what is now certain not to be an edge. */
  feed(piece: string): string;
  /** True once anything but whitespace has been fed. */
  readonly started: boolean;
}

/**
 * Creates a stream-safe trimmer: for any split of a text into pieces, the concatenated output of
 * every `feed` is `text.trim()` (trailing whitespace is held back until more text follows it, and
 * dropped when nothing does). Reasoning goes through one, so the newlines around `<think>` tags,
 * or at the edges of a `reasoning_content` field, belong to neither the reasoning nor the text.
 * @internal
 */
export function createEdgeTrimmer(): EdgeTrimmer {
  let started = false;
  let held = '';
  return {
    get started() {
      return started;
    },
    feed(piece) {
      let text = piece;
      if (!started) {
        text = text.trimStart();
        if (text === '') return '';
        started = true;
      }
      const joined = held + text;
      const body = joined.trimEnd();
      held = joined.slice(body.length);
      return body;
    },
  };
}
