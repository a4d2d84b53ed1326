import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ToolTimeoutError');

/** A tool ran past its resolved deadline. Message: `tool \`X\` timed out after N ms`. */
export class ToolTimeoutError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  /** The budget reported to users (without the grace period). */
  readonly timeoutMs: number;
  constructor(options: { toolName: string; timeoutMs: number; cause?: unknown }) {
    super('ToolTimeoutError', `tool \`${options.toolName}\` timed out after ${options.timeoutMs} ms`, options);
    this.toolName = options.toolName;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(value: unknown): value is ToolTimeoutError {
    return isMarked(value, marker);
  }
}
