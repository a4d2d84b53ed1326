import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ArtifactUnreadableError');

/**
 * An artifact store holds bytes for a reference that do not match what was recorded at `put` (size
 * or SHA-256), or a record it cannot read. Nothing is changed, so the data can be inspected.
 */
export class ArtifactUnreadableError extends TinyError {
  readonly [marker] = true;
  /** The artifact's `tiny-artifact://` URI. */
  readonly uri: string;
  /** Why it could not be read. */
  readonly reason: string;

  constructor(options: { uri: string; reason: string; cause?: unknown }) {
    super('ArtifactUnreadableError', `artifact ${options.uri} is unreadable: ${options.reason}`, options);
    this.uri = options.uri;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ArtifactUnreadableError {
    return isMarked(value, marker);
  }
}
