import type { Message } from '@tiny/llm';
import type { Tool } from '@tiny/tools';

/**
 * The arguments a tool's `execute` takes (`Tool<TArgs>` → `TArgs`), e.g. `ToolArguments<typeof pay>`:
 * what `approvalsFor` types a call's `arguments` as, and what `approveWithArgs<typeof pay>` takes.
 */
export type ToolArguments<TTool> = TTool extends Tool<infer TArgs> ? TArgs : never;

/**
 * A call that left the loop without a result, waiting for the host. Untyped (`arguments: unknown`)
 * as the run returns it; `run.deferred.approvalsFor(tool)` gives the calls of one tool typed with
 * its arguments and name.
 */
export interface DeferredCall<TArgs = unknown, TName extends string = string> {
  readonly callId: string;
  /** The tool the model called (the name it is registered under). */
  readonly toolName: TName;
  /** The arguments the model sent (no host-injected values). */
  readonly arguments: TArgs;
  /** `approval_required`, `call_deferred`, `external`, or a reason given by the tool. */
  readonly reason: string;
  /**
   * Binds the call to this pause: `approvalDigest` of (run id, call id, tool name, arguments), an
   * HMAC with the harness's `approvalSecret`. Decisions made from this object carry it; a resume
   * whose state or decision no longer matches is refused before anything runs.
   */
  readonly digest?: string | undefined;
  /**
   * The policy the call was deferred under (`approvalPolicyDigest`: the tool's definition and
   * approval requirement), bound by `digest`. An approval resumed after the tool's definition or
   * policy changed is not run: the call is deferred again with reason `needs_reapproval`.
   */
  readonly policy?: string | undefined;
}

/** The data of a deferred batch (what a run state stores). */
export interface DeferredBatchData {
  readonly calls: readonly DeferredCall[];
  readonly approvals: readonly DeferredCall[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Follow-up messages from the batch's finished calls, appended once the deferred calls are answered. */
  readonly followUps: readonly Message[];
}
