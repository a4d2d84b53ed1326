import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.InvalidToolPolicyError');

/** `ToolPolicy.fromJSON` was given data that is not a tool policy. */
export class InvalidToolPolicyError extends TinyError {
  readonly [marker] = true;
  /** The validation issues, rendered as `<path> <message>; ...`. */
  readonly issues: string;

  constructor(options: { issues: string; cause?: unknown }) {
    super('InvalidToolPolicyError', `invalid tool policy: ${options.issues}`, options);
    this.issues = options.issues;
  }

  static override isInstance(value: unknown): value is InvalidToolPolicyError {
    return isMarked(value, marker);
  }
}
