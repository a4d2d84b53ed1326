import type { Message } from '@tiny/llm';

/** A call that left the loop without a result, waiting for the host. */
export interface DeferredCall {
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: unknown;
  /** `approval_required`, `call_deferred`, `external`, or a reason given by the tool. */
  readonly reason: string;
  /**
   * Binds the call to this pause: `approvalDigest` of (run id, call id, tool name, arguments), an
   * HMAC with the harness's `approvalSecret`. Decisions made from this object carry it; a resume
   * whose state or decision no longer matches is refused before anything runs.
   */
  readonly digest?: string | undefined;
}

/** The data of a deferred batch (what a run state stores). */
export interface DeferredBatchData {
  readonly calls: readonly DeferredCall[];
  readonly approvals: readonly DeferredCall[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Follow-up messages from the batch's finished calls, appended once the deferred calls are answered. */
  readonly followUps: readonly Message[];
}
