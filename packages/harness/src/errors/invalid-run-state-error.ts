import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.InvalidRunStateError');

/** A serialised run state is malformed, of another schema version, or inconsistent with itself. */
export class InvalidRunStateError extends TinyError {
  readonly [marker] = true;
  readonly reason: string;

  constructor(options: { reason: string; cause?: unknown }) {
    super('InvalidRunStateError', `invalid run state: ${options.reason}`, options);
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is InvalidRunStateError {
    return isMarked(value, marker);
  }
}
