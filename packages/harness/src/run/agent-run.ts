import type { LanguageModelV1Usage, Message } from '@tiny/llm';
import type { AnyTool, JsonValue } from '@tiny/tools';
import type { ArtifactRef } from '../artifacts/artifact-store.js';
import type { DeferredBatchData, DeferredCall, ToolArguments } from '../deferral/deferred-call.js';
import type { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { RunState } from '../deferral/run-state.js';
import type { AgentEvent, RunOutcome } from '../events/agent-event.js';

/** Calls waiting on the host: approvals and externally executed calls; `metadata` by call id. */
export interface DeferredToolRequests extends DeferredBatchData {
  /** The pending calls that `results` does not decide yet; resume only when this is empty. */
  remaining(results: DeferredToolResults): DeferredCall[];
  /**
   * The approvals of one tool (matched by its name), typed with its arguments, so an edit is
   * checked at compile time: `results.approveWithArgs(call, { ...call.arguments, cents: 250 })`.
   * The arguments are the model's as sent; their type is the tool's, and they were validated
   * against its schema before the call paused.
   */
  approvalsFor<TTool extends AnyTool>(tool: TTool): DeferredCall<ToolArguments<TTool>, TTool['name']>[];
}

/** Wraps batch data with `remaining` and `approvalsFor` (not enumerable: the object still serialises as plain data). */
export function createDeferredToolRequests(data: DeferredBatchData): DeferredToolRequests {
  const requests = { ...data } as DeferredToolRequests;
  Object.defineProperties(requests, {
    remaining: {
      enumerable: false,
      value: (results: DeferredToolResults) =>
        [...data.approvals, ...data.calls].filter((call) => results.get(call.callId) === undefined),
    },
    approvalsFor: {
      enumerable: false,
      value: (tool: { readonly name: string }) => data.approvals.filter((call) => call.toolName === tool.name),
    },
  });
  return requests;
}

/** Host-only metadata a tool attached to its result. */
export interface ToolMetadataRecord {
  readonly callId: string;
  readonly toolName: string;
  readonly metadata: JsonValue;
}

/** What every run reports, whatever its outcome. */
export interface AgentRunBase {
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
  /**
   * `usage.cachedInputTokens / usage.inputTokens` (0 to 1): how much of the run's input the
   * provider's prompt cache served. Absent when the provider reports no cached tokens.
   */
  readonly cacheHitRatio?: number | undefined;
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
}

/** A run that paused on deferred calls (`outcome: 'deferred'`): decide them and `resumeDeferred`. */
export interface DeferredAgentRun extends AgentRunBase {
  readonly outcome: 'deferred';
  /** The calls waiting on the host. */
  readonly deferred: DeferredToolRequests;
  /** Everything needed to resume, as plain JSON (see `serializeRunState`). */
  readonly state: RunState;
  readonly interrupt?: undefined;
}

/** A run a middleware interrupted (`outcome: 'interrupted'`). */
export interface InterruptedAgentRun extends AgentRunBase {
  readonly outcome: 'interrupted';
  /** Which middleware interrupted the run, where, and why. */
  readonly interrupt: { readonly node: string; readonly message: string; readonly by: string };
  readonly deferred?: undefined;
  readonly state?: undefined;
}

/** A run that ended (`final`, `return_direct`, `terminated`, `stopped`): nothing to resume. */
export interface SettledAgentRun extends AgentRunBase {
  readonly outcome: Exclude<RunOutcome, 'deferred' | 'interrupted'>;
  readonly deferred?: undefined;
  readonly state?: undefined;
  readonly interrupt?: undefined;
}

/**
 * What a run produced: a union on `outcome`. Only a `deferred` run has `deferred` and `state`
 * (check `run.outcome === 'deferred'` and both are there, no `!`), only an `interrupted` one
 * `interrupt`; on the others they are `undefined`.
 */
export type AgentRun = SettledAgentRun | DeferredAgentRun | InterruptedAgentRun;
