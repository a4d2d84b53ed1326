import { describeSafely } from '../execution/plain-data.js';

/**
 * The `reason` of a `CallDeferredError` or `ApprovalRequiredError` as the run records it (the
 * `tool_deferred` event, the pending call, the saved state): a string as it is, anything else its
 * text (see `describeSafely`), never the thrower's live object.
 * @internal
 */
export function pauseReason(reason: unknown): string {
  return typeof reason === 'string' ? reason : describeSafely(reason);
}
