import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ModelRetry');

/**
 * Thrown by a tool to ask the model to try again with the given advice.
 * The harness turns it into `ToolResult.retry(message)` and the run continues.
 */
export class ModelRetry extends TinyError {
  readonly [marker] = true;
  /** The advice the model reads. */
  readonly advice: string;
  constructor(advice: string, options?: { cause?: unknown }) {
    super('ModelRetry', advice, options);
    this.advice = advice;
  }

  static override isInstance(value: unknown): value is ModelRetry {
    return isMarked(value, marker);
  }
}
