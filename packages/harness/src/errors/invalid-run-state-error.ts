import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.InvalidRunStateError');

/**
 * What is wrong with a refused run state: `malformed` (shape, schema version or consistency) or
 * `tampered` (the harness signs states and this one's signature is missing or does not match).
 */
export type InvalidRunStateProblem = 'malformed' | 'tampered';

/**
 * A serialised run state is malformed, of another schema version, or inconsistent with itself
 * (`problem: 'malformed'`), or unsigned or edited while the harness signs states (`'tampered'`).
 */
export class InvalidRunStateError extends TinyError {
  readonly [marker] = true;
  readonly reason: string;
  readonly problem: InvalidRunStateProblem;

  constructor(options: { reason: string; problem?: InvalidRunStateProblem | undefined; cause?: unknown }) {
    super('InvalidRunStateError', `invalid run state: ${options.reason}`, options);
    this.reason = options.reason;
    this.problem = options.problem ?? 'malformed';
  }

  static override isInstance(value: unknown): value is InvalidRunStateError {
    return isMarked(value, marker);
  }
}
