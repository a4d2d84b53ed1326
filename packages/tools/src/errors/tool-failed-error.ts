import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ToolFailedError');

/**
 * Thrown by a tool that ran and failed in a way retrying will not fix.
 * The harness turns it into `ToolResult.failed(message)`, which retry middleware does not retry.
 */
export class ToolFailedError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string | undefined;
  readonly reason: string;
  constructor(options: { reason: string; toolName?: string; cause?: unknown }) {
    super(
      'ToolFailedError',
      options.toolName === undefined ? options.reason : `tool \`${options.toolName}\` failed: ${options.reason}`,
      options,
    );
    this.toolName = options.toolName;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ToolFailedError {
    return isMarked(value, marker);
  }
}
