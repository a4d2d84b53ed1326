import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonical } from '../ledger/idempotency-key.js';

/**
 * The host secret approvals are signed with: a string or bytes, or a function of the run id
 * (e.g. a per-tenant key). With one, every pending call's digest is an HMAC-SHA-256; without one,
 * a plain SHA-256 (detects edits, not forgeries by whoever can also recompute the digest).
 */
export type ApprovalSecret = string | Uint8Array | ((runId: string) => string | Uint8Array);

/** What a pending call's digest binds: the run, the call, the tool and the model-visible arguments. */
export interface ApprovalDigestInput {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  /** The arguments the model chose (no host-injected values). */
  readonly arguments: unknown;
}

/**
 * The digest of one pending call: `hmac-sha256:<hex>` with a secret, `sha256:<hex>` without, over the
 * canonical JSON (keys sorted at every depth) of run id, call id, tool name and arguments. Computed
 * once when a call pauses; checked on resume against the state's pending call and the host's decision.
 */
export function approvalDigest(call: ApprovalDigestInput, secret?: ApprovalSecret): string {
  const body = canonical(['tiny.approval.v1', call.runId, call.callId, call.toolName, call.arguments]);
  if (secret === undefined) return `sha256:${createHash('sha256').update(body).digest('hex')}`;
  const key = typeof secret === 'function' ? secret(call.runId) : secret;
  return `hmac-sha256:${createHmac('sha256', key).update(body).digest('hex')}`;
}

/** Constant-time comparison of two digests. @internal */
export function sameDigest(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}
