import { isMarked, TinyError } from '@tiny/tools';
import { describeSafely } from '../execution/plain-data.js';

const marker = Symbol.for('tiny.error.ToolExecutionError');

/**
 * A tool threw and the run's tool-error policy is `fail` (the default): the run stops. `cause` is
 * what the tool threw, or, when it held a value the host injected into the call or a sensitive
 * argument value, a scrubbed copy of it (same prototype, `[redacted]` in its message, stack, cause
 * chain and properties); `callId` and `toolName` say which call. The message says how to send such
 * errors to the model instead (`ModelRetry`, or `policy.toolErrors: { kind: 'return_error' }`).
 */
export class ToolExecutionError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly callId: string;

  constructor(options: { toolName: string; callId: string; cause: unknown }) {
    // Whatever was thrown (a null-prototype object, a throwing `toString` or `message` getter, a
    // revoked proxy): described without throwing.
    const detail = describeSafely(options.cause);
    super(
      'ToolExecutionError',
      `tool \`${options.toolName}\` (call ${options.callId}) threw: ${detail}. ` +
        "To let the model read the error and try again instead, throw ModelRetry from the tool, or set policy.toolErrors: { kind: 'return_error' }",
      options,
    );
    this.toolName = options.toolName;
    this.callId = options.callId;
  }

  static override isInstance(value: unknown): value is ToolExecutionError {
    return isMarked(value, marker);
  }
}
