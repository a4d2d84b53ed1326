import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ApprovalRequiredError');

/**
 * Thrown by a tool (or `beforeTool` middleware) to pause the call until a human approves it.
 * The call lands in `DeferredToolRequests.approvals` with `metadata` keyed by its call id.
 */
export class ApprovalRequiredError extends TinyError {
  readonly [marker] = true;
  readonly metadata: unknown;
  readonly reason: string;
  constructor(options: { reason?: string; metadata?: unknown; cause?: unknown }) {
    super('ApprovalRequiredError', options.reason ?? 'approval required', options);
    this.reason = options.reason ?? 'approval_required';
    this.metadata = options.metadata;
  }

  static override isInstance(value: unknown): value is ApprovalRequiredError {
    return isMarked(value, marker);
  }
}
