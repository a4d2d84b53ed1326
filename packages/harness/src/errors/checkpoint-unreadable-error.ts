import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.CheckpointUnreadableError');

/**
 * A checkpoint store holds data for a run that it cannot turn back into a `RunState`: not JSON, of
 * another schema version, inconsistent with itself (the `InvalidRunStateError` is the `cause`), or
 * unreadable storage. The stored data is left as it was, so it can be inspected or restored.
 */
export class CheckpointUnreadableError extends TinyError {
  readonly [marker] = true;
  /** The run whose checkpoint was read. */
  readonly runId: string;
  /** Where the data lives: a file path, or a database path and table. */
  readonly location: string;
  /** Why it could not be read. */
  readonly reason: string;

  constructor(options: { runId: string; location: string; reason: string; cause?: unknown }) {
    super(
      'CheckpointUnreadableError',
      `checkpoint of run "${options.runId}" at ${options.location} is unreadable: ${options.reason}`,
      options,
    );
    this.runId = options.runId;
    this.location = options.location;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is CheckpointUnreadableError {
    return isMarked(value, marker);
  }
}
