import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.InvalidInputError');

/**
 * A public function was called with input of the wrong shape (a wrong type, a cyclic object where
 * JSON is required, a malformed stored record). `entryPoint` names the function; nothing was changed.
 */
export class InvalidInputError extends TinyError {
  readonly [marker] = true;
  readonly entryPoint: string;
  readonly reason: string;

  constructor(options: { entryPoint: string; reason: string; cause?: unknown }) {
    super('InvalidInputError', `${options.entryPoint}: ${options.reason}`, options);
    this.entryPoint = options.entryPoint;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is InvalidInputError {
    return isMarked(value, marker);
  }
}
