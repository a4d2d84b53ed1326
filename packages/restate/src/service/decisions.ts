import type { DeferredCall } from '@tiny/harness';
import type { JsonValue, ToolResultJson } from '@tiny/tools';

/** One decision about a pending call, as JSON (the shape of `DeferredToolResults.toJSON()` per id). */
export type DecisionJson = (
  | { readonly kind: 'approve' }
  | { readonly kind: 'approve_with_args'; readonly arguments: JsonValue }
  | { readonly kind: 'deny'; readonly message: string }
  | { readonly kind: 'respond'; readonly result: ToolResultJson }
  | { readonly kind: 'retry'; readonly message: string }
  | { readonly kind: 'fail'; readonly message: string }
) & {
  /**
   * The pending call's `digest` (from `pending()`): binds the decision to that exact call. `decide`
   * refuses a decision whose digest differs (`mismatch`, 422); the harness checks it again on resume.
   */
  readonly digest?: string | undefined;
};

/** The body of the `decide` handler. */
export interface DecisionRequest {
  readonly callId: string;
  readonly decision: DecisionJson;
}

/** What `decide` answers when it accepted a decision. */
export interface DecisionReceipt {
  readonly runId: string;
  readonly callId: string;
  readonly round: number;
}

/** The calls a paused durable run waits on (`round` counts pauses from 1; 0 with no calls means "not paused"). */
export interface PendingDecisions {
  readonly round: number;
  readonly calls: readonly DeferredCall[];
}

/** Workflow state keys and promise names. @internal */
export const PENDING_KEY = 'pending';
/** @internal */
export const DECIDED_KEY = 'decided';
/** @internal */
export const decisionPromiseName = (callId: string): string => `decision:${callId}`;
/** The status code and `problem` prefix the `decide` handler refuses with. @internal */
export const REFUSAL_STATUS = { stale: 409, foreign: 404, invalid: 400, mismatch: 422 } as const;
