import { createHash } from 'node:crypto';

/**
 * The idempotency key of a call in a durable run: SHA-256 (hex) of the run id (the workflow key)
 * and the call id. Both are journaled, so the key is the same on every replay and on every worker;
 * two calls of the same tool with the same arguments in one run still get different keys.
 * Pass it to the downstream system a side-effecting tool talks to (a payment API's idempotency
 * header, a unique row key) so a call re-executed after a crash is applied once.
 */
export function restateIdempotencyKey(call: { readonly runId: string; readonly callId: string }): string {
  return createHash('sha256').update(call.runId).update('\u0000').update(call.callId).digest('hex');
}
