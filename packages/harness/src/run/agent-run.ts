import type { LanguageModelV1Usage, Message } from '@tiny/llm';
import type { AnyTool, JsonValue, Tool } from '@tiny/tools';
import type { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { RunState } from '../deferral/run-state.js';
import type { AgentEvent, RunOutcome } from '../events/agent-event.js';

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
}

/** The data of a deferred batch (what a run state stores). */
export interface DeferredBatchData {
  readonly calls: readonly DeferredCall[];
  readonly approvals: readonly DeferredCall[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Follow-up messages from the batch's finished calls, appended once the deferred calls are answered. */
  readonly followUps: readonly Message[];
}

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
  readonly modelCalls: number;
  readonly toolCalls: number;
  /** Names of tools that actually executed, in execution order (recoveries excluded). */
  readonly executedTools: readonly string[];
  readonly toolMetadata: readonly ToolMetadataRecord[];
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
