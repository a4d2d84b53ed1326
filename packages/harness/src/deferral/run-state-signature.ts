import { createHmac } from 'node:crypto';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { canonical } from '../ledger/idempotency-key.js';
import { type ApprovalSecret, approvalKey, sameDigest } from './approval-digest.js';
import type { RunState } from './run-state.js';

/** The prefix of a run state's signature (see {@link signRunState}). */
const PREFIX = 'hmac-sha256:';

/**
 * The HMAC-SHA-256 of `state` without its `signature` field: over the canonical JSON (keys sorted
 * at every depth) of the state as JSON reads it back, domain-separated from approval digests, with
 * the key `secret` gives for the state's run id (the key rules of `approvalSecret`).
 * @internal
 */
export function runStateSignature(state: RunState, secret: ApprovalSecret): string {
  const { signature: _ignored, ...unsigned } = state;
  // As JSON reads it back (undefined fields dropped, `toJSON` applied), so a stored copy signs alike.
  const plain: unknown = JSON.parse(JSON.stringify(unsigned));
  const body = canonical(['tiny.run-state.v1', plain]);
  return `${PREFIX}${createHmac('sha256', approvalKey(secret, state.runId)).update(body).digest('hex')}`;
}

/** `state` with its `signature` set (see {@link runStateSignature}). @internal */
export function signRunState(state: RunState, secret: ApprovalSecret): RunState {
  return { ...state, signature: runStateSignature(state, secret) };
}

/**
 * Refuses a run state that carries no signature, or one `secret` did not give for exactly this
 * state: it was written by a harness without the secret, or edited after it was written.
 * @throws {InvalidRunStateError} with problem `tampered`.
 * @internal
 */
export function verifyRunState(state: RunState, secret: ApprovalSecret): void {
  const signature = state.signature;
  if (typeof signature !== 'string' || signature === '')
    throw new InvalidRunStateError({
      problem: 'tampered',
      reason: 'it carries no signature, but this harness signs run states (`stateSecret` or `approvalSecret`)',
    });
  if (!sameDigest(signature, runStateSignature(state, secret)))
    throw new InvalidRunStateError({
      problem: 'tampered',
      reason: 'its signature does not match its content (edited after it was written, or signed with another key)',
    });
}
