import type { LanguageModelV1Usage, Message } from '@tiny/llm';
import type { JsonValue } from '@tiny/tools';
import type { ArtifactRef } from '../artifacts/artifact-store.js';
import type { DeferredBatchData, DeferredCall } from '../deferral/deferred-call.js';
import type { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { RunState } from '../deferral/run-state.js';
import type { AgentEvent, RunOutcome } from '../events/agent-event.js';

/** Calls waiting on the host: approvals and externally executed calls; `metadata` by call id. */
export interface DeferredToolRequests extends DeferredBatchData {
  /** The pending calls that `results` does not decide yet; resume only when this is empty. */
  remaining(results: DeferredToolResults): DeferredCall[];
}

/** Wraps batch data with `remaining` (not enumerable, so the object still serialises as plain data). */
export function createDeferredToolRequests(data: DeferredBatchData): DeferredToolRequests {
  const requests = { ...data } as DeferredToolRequests;
  Object.defineProperty(requests, 'remaining', {
    enumerable: false,
    value: (results: DeferredToolResults) =>
      [...data.approvals, ...data.calls].filter((call) => results.get(call.callId) === undefined),
  });
  return requests;
}

/** Host-only metadata a tool attached to its result. */
export interface ToolMetadataRecord {
  readonly callId: string;
  readonly toolName: string;
  readonly metadata: JsonValue;
}

/** What a run produced. */
export interface AgentRun {
  readonly runId: string;
  readonly outcome: RunOutcome;
  /** The whole transcript: the input messages, then everything the run appended. */
  readonly messages: readonly Message[];
  /** The final answer: the model's last narrative, or a return-direct tool output. */
  readonly text: string;
  /** Recorded events (empty when recording was turned off). */
  readonly events: readonly AgentEvent[];
  /** Summed token usage across model calls. */
  readonly usage: LanguageModelV1Usage;
  readonly modelCalls: number;
  readonly toolCalls: number;
  /** Names of tools that actually executed, in execution order (recoveries excluded). */
  readonly executedTools: readonly string[];
  readonly toolMetadata: readonly ToolMetadataRecord[];
  /**
   * References to what this run stored in the harness's artifact store (`AgentHarnessOptions.artifacts`),
   * in fold order; empty without a store. A resumed run lists only what it stored itself; earlier
   * references stay valid in the transcript and in the store.
   */
  readonly artifacts: readonly ArtifactRef[];
  /** State updates queued by tools, in call order. */
  readonly stateUpdates: readonly JsonValue[];
  /** Present when the run paused on deferred calls. */
  readonly deferred?: DeferredToolRequests | undefined;
  /** Present when the run paused: everything needed to resume it, as plain JSON (see `serializeRunState`). */
  readonly state?: RunState | undefined;
  /** Present when a middleware interrupted the run. */
  readonly interrupt?: { readonly node: string; readonly message: string; readonly by: string } | undefined;
}
