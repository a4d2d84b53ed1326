import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.CallDeferredError');

/**
 * Thrown by a tool (or `beforeTool` middleware) to hand the call to the host to execute elsewhere.
 * The call lands in `DeferredToolRequests.calls` with `metadata` keyed by its call id.
 */
export class CallDeferredError extends TinyError {
  readonly [marker] = true;
  readonly metadata: unknown;
  readonly reason: string;
  constructor(options: { reason?: string; metadata?: unknown; cause?: unknown }) {
    super('CallDeferredError', options.reason ?? 'call deferred', options);
    this.reason = options.reason ?? 'call_deferred';
    this.metadata = options.metadata;
  }

  static override isInstance(value: unknown): value is CallDeferredError {
    return isMarked(value, marker);
  }
}
