import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ApprovalSecretError');

/**
 * The `approvalSecret` gave no usable key: an empty string, empty bytes, or something that is not a
 * string or `Uint8Array` (e.g. `undefined` from a lookup that missed), or the function threw. Nothing
 * is signed with such a key (an empty HMAC key lets anyone forge an approval): the pause or the
 * resume that asked for the key fails instead.
 */
export class ApprovalSecretError extends TinyError {
  readonly [marker] = true;
  /** The run whose key was asked for. */
  readonly runId: string;
  readonly reason: string;

  constructor(options: { runId: string; reason: string; cause?: unknown }) {
    super('ApprovalSecretError', `approvalSecret for run "${options.runId}": ${options.reason}`, options);
    this.runId = options.runId;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ApprovalSecretError {
    return isMarked(value, marker);
  }
}
