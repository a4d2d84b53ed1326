import type { JsonPrefixReader } from './json-prefix-reader.js';
import type { ToolKnowledge } from './scan-context.js';

/**
 * What the prose readings (`read-prose-json.ts`, `read-prose-markers.ts`) read and move of the
 * whole-response guard's state: the guard (`WholeResponseGuard`) implements it, and the readings depend
 * on this shape, not on the guard's module.
 */
export interface ProseReadingState {
  readonly knowledge: ToolKnowledge;
  /** Absolute position (in the scrubbed stream) of the first held character. */
  base: number;
  /** Everything from here on is held until the stream ends. */
  holdFrom: number | undefined;
  /** A `{` or `[` in prose that the JSON-in-prose reading could still read. */
  candidate: JsonPrefixReader | undefined;
  /** Where a candidate's hold starts. */
  candidateHold: number;
  /** Where the last non-space character of prose ends. */
  lastNonSpaceEnd: number;
  /** A `>` or a line-start `A` in prose that may become a whole-reply marker, and where its hold starts. */
  marker: { text: string; hold: number } | undefined;
  /** Whether the marker reader stands at a line's start. */
  lineStart: boolean;
  /** Where the marker reader's last non-space character ends. */
  markerSpaceFrom: number;
  /** Whether a marker after prose opened. */
  markerOpened: boolean;
  /** Characters examined (a test reads it to check work stays linear). */
  examined: number;
  /** The held scrubbed text, joined. */
  heldText(): string;
  /** Holds everything from `position` (absolute) to the stream's end. */
  holdAllFrom(position: number): void;
}
