import {
  RestateError,
  RestatePromise,
  TerminalError,
  type WorkflowContext,
  type WorkflowOptions,
  type WorkflowSharedContext,
  workflow,
} from '@restatedev/restate-sdk';
import {
  type AgentEvent,
  type AgentHarness,
  type AgentRun,
  DeferredToolResults,
  type HostToolAccess,
  type InvokeOptions,
  type RunContext,
  type ToolMetadataRecord,
} from '@tiny/harness';
import type { LanguageModelV1Usage, Message } from '@tiny/llm';
import { createValidator, formatValidationIssues, type JsonValue } from '@tiny/tools';
import {
  DECIDED_KEY,
  type DecisionJson,
  type DecisionReceipt,
  type DecisionRequest,
  decisionPromiseName,
  PENDING_KEY,
  type PendingDecisions,
  REFUSAL_STATUS,
} from './decisions.js';
import { createJournal } from './journal-middleware.js';

/** The JSON parts of a `RunContext` a caller may send with a run (the run id is the workflow key). */
export interface RestateRunContext {
  readonly hostValues?: Readonly<Record<string, JsonValue>> | undefined;
  readonly state?: JsonValue | undefined;
  readonly threadId?: string | undefined;
  /** The host's allow-list: enforced exactly as in-process (an empty list denies every tool). */
  readonly host?: HostToolAccess | undefined;
}

/** The body of the workflow's `run` handler. */
export interface RestateAgentInput {
  readonly messages: readonly Message[];
  readonly context?: RestateRunContext | undefined;
}

/**
 * What the `run` handler returns: the `AgentRun` without events (they go to `onEvents`).
 * `executedTools`, `toolMetadata` and `stateUpdates` cover every round of the run, before and after
 * each wait for decisions.
 */
export interface RestateAgentResult {
  readonly runId: string;
  /** Never `deferred`: a durable run waits for its decisions instead of pausing. */
  readonly outcome: AgentRun['outcome'];
  readonly text: string;
  readonly messages: readonly Message[];
  readonly usage: LanguageModelV1Usage;
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly executedTools: readonly string[];
  readonly toolMetadata: readonly ToolMetadataRecord[];
  readonly stateUpdates: readonly JsonValue[];
  readonly interrupt?: AgentRun['interrupt'];
}

/** Per-run settings that stay with the service (not sent by callers). */
export type RestateInvokeOptions = Pick<InvokeOptions, 'policy' | 'limits' | 'toolChoice' | 'modelSettings'>;

/** Options for {@link createRestateAgentService}. */
export interface RestateAgentServiceOptions<TName extends string> {
  /** The Restate workflow name (the ingress path segment). */
  readonly name: TName;
  /**
   * Builds the harness for an invocation (called once per attempt, on every worker). It must be
   * deterministic: the same tools, policy and middleware on every worker, since a replay re-runs
   * the loop against the journal.
   */
  readonly harness: () => AgentHarness | Promise<AgentHarness>;
  /** Policy, limits, tool choice and model settings for every run. */
  readonly invoke?: RestateInvokeOptions | undefined;
  /**
   * Receives the run's events in batches, each batch a journaled step: delivered once per run (at
   * least once when a worker dies during the delivery itself), never again on replay.
   */
  readonly onEvents?:
    | ((events: readonly AgentEvent[], run: { readonly runId: string }) => void | Promise<void>)
    | undefined;
  /** Adds non-JSON run context (a store, a workspace) on the worker. Called on every attempt. */
  readonly runContext?: ((input: RestateAgentInput, runId: string) => Partial<RunContext>) | undefined;
  /** Restate workflow options (retention, timeouts, retry policy). */
  readonly options?: WorkflowOptions | undefined;
}

function summarise(run: AgentRun, earlier: readonly AgentRun[]): RestateAgentResult {
  const all = [...earlier, run];
  return {
    runId: run.runId,
    outcome: run.outcome,
    text: run.text,
    messages: run.messages,
    usage: run.usage,
    modelCalls: run.modelCalls,
    toolCalls: run.toolCalls,
    executedTools: all.flatMap((part) => part.executedTools),
    toolMetadata: all.flatMap((part) => part.toolMetadata),
    stateUpdates: all.flatMap((part) => part.stateUpdates),
    ...(run.interrupt === undefined ? {} : { interrupt: run.interrupt }),
  };
}

/** An error caused by Restate itself (suspension, a journal mismatch) must reach the SDK untouched. */
function restateCause(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (current instanceof RestateError) return current;
    current = current.cause;
  }
  return undefined;
}

/** Ends the invocation: Restate errors as they are; everything else terminal, so it is not retried forever. */
function terminal(error: unknown): unknown {
  if (error instanceof TerminalError) return error;
  const cause = restateCause(error);
  if (cause instanceof TerminalError) return cause;
  if (cause !== undefined) return error;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new TerminalError(message, { errorCode: 500 });
}

function refuse(problem: keyof typeof REFUSAL_STATUS, detail: string): TerminalError {
  return new TerminalError(`${problem}: ${detail}`, { errorCode: REFUSAL_STATUS[problem] });
}

/**
 * A Restate workflow that runs an `AgentHarness` durably. The workflow key is the run id.
 * - `run(input)`: runs the agent. Every model call and tool execution is a journaled step, so
 *   after a crash the run replays without calling the model or re-running a completed tool. A
 *   deferred batch (approval, external tool) waits on one durable promise per pending call, then
 *   continues exactly like `harness.resumeDeferred` (the harness validates edited arguments).
 * - `pending()`: the calls waiting for a decision now.
 * - `decide({ callId, decision })`: resolves one pending call. Refused with a terminal error and
 *   HTTP status 409 (`stale`: decided already), 404 (`foreign`: never pending in this run) or 400
 *   (`invalid`: malformed decision, or `approve_with_args` arguments the tool's schema refuses:
 *   the host's mistake, never shown to the model) or 422 (`mismatch`: the decision carries a `digest` that is not
 *   the pending call's); the message starts with the problem.
 */
export function createRestateAgentService<TName extends string>(options: RestateAgentServiceOptions<TName>) {
  return workflow({
    name: options.name,
    ...(options.options === undefined ? {} : { options: options.options }),
    handlers: {
      /** Runs the agent durably, waiting on a durable promise per pending call of a deferred batch. */
      run: async (ctx: WorkflowContext, input: RestateAgentInput): Promise<RestateAgentResult> => {
        if (!Array.isArray(input?.messages)) throw refuse('invalid', '`messages` must be an array of messages');
        const runId = ctx.key;
        const subscriber = options.onEvents;
        const journal = createJournal(
          ctx,
          subscriber === undefined ? undefined : (events) => subscriber(events, { runId }),
        );
        const context: RunContext = {
          ...(options.runContext?.(input, runId) ?? {}),
          ...(input.context ?? {}),
          runId,
        };
        // One durable run, however many rounds of decisions: the harness starts and ends each round
        // (`invoke`, then `resumeDeferred`), but subscribers see one `run_started` (the first round's)
        // and one `run_completed` (the last round's); a round that deferred is a wait, not an end.
        let harnessRounds = 0;
        const deliver = journal.onEvent;
        const onEvent =
          deliver === undefined
            ? undefined
            : (event: AgentEvent) => {
                if (event.type === 'run_started' && harnessRounds > 0) return;
                if (event.type === 'run_completed' && event.outcome === 'deferred') return;
                deliver(event);
              };
        const invokeOptions: InvokeOptions = {
          ...options.invoke,
          middleware: [journal.middleware],
          onEvent,
          recordEvents: false,
        };
        try {
          const harness = await options.harness();
          let run = await harness.invoke(context, input.messages, invokeOptions);
          harnessRounds = 1;
          let round = 0;
          const decided: string[] = [];
          const rounds: AgentRun[] = [];
          while (run.outcome === 'deferred' && run.state !== undefined && run.deferred !== undefined) {
            round += 1;
            const calls = [...run.deferred.approvals, ...run.deferred.calls];
            const pending: PendingDecisions = { round, calls };
            ctx.set(PENDING_KEY, pending);
            await journal.flush();
            const answers = await RestatePromise.all(
              calls.map((call) => ctx.promise<DecisionJson>(decisionPromiseName(call.callId)).get()),
            );
            decided.push(...calls.map((call) => call.callId));
            ctx.set(DECIDED_KEY, decided);
            ctx.clear(PENDING_KEY);
            const results = DeferredToolResults.fromJSON(
              Object.fromEntries(calls.map((call, index) => [call.callId, answers[index]])),
            );
            rounds.push(run);
            // The journal makes each step exactly-once, so a replayed round may resume the same state again.
            run = await harness.resumeDeferred(context, run.state, results, { ...invokeOptions, resumeOnce: false });
          }
          await journal.flush();
          return summarise(run, rounds);
        } catch (error) {
          throw terminal(error);
        }
      },

      /** The calls waiting for a decision now (none when the run is not paused). */
      pending: async (ctx: WorkflowSharedContext): Promise<PendingDecisions> =>
        (await ctx.get<PendingDecisions>(PENDING_KEY)) ?? { round: 0, calls: [] },

      /** Resolves one pending call; a stale, foreign, malformed or mismatched decision is refused with a terminal error. */
      decide: async (ctx: WorkflowSharedContext, request: DecisionRequest): Promise<DecisionReceipt> => {
        const callId = request?.callId;
        if (typeof callId !== 'string' || callId === '') throw refuse('invalid', '`callId` must be a non-empty string');
        try {
          DeferredToolResults.fromJSON({ [callId]: request.decision });
        } catch (error) {
          throw refuse('invalid', error instanceof Error ? error.message : String(error));
        }
        const pending = await ctx.get<PendingDecisions>(PENDING_KEY);
        const decided = (await ctx.get<string[]>(DECIDED_KEY)) ?? [];
        if (pending === null || !pending.calls.some((call) => call.callId === callId)) {
          if (decided.includes(callId)) throw refuse('stale', `call \`${callId}\` was decided already`);
          throw refuse('foreign', `call \`${callId}\` is not pending in run \`${ctx.key}\``);
        }
        const digest = (request.decision as { digest?: unknown }).digest;
        const call = pending.calls.find((entry) => entry.callId === callId);
        if (digest !== undefined && digest !== call?.digest)
          throw refuse('mismatch', `the decision's digest does not match pending call \`${callId}\``);
        // Edited arguments are the host's: a mismatch with the tool's schema is refused here, to the
        // host, before the run resumes (the harness checks again, with injected values, on resume).
        if (request.decision.kind === 'approve_with_args' && call !== undefined) {
          const entry = (await options.harness()).registry.get(call.toolName);
          const checked =
            entry === undefined
              ? undefined
              : createValidator(entry.schema.parameters).validate(request.decision.arguments);
          if (checked !== undefined && !checked.ok)
            throw refuse(
              'invalid',
              `edited arguments for call \`${callId}\` do not match tool \`${call.toolName}\`: ${formatValidationIssues(checked.issues)}`,
            );
        }
        const promise = ctx.promise<DecisionJson>(decisionPromiseName(callId));
        if ((await promise.peek()) !== undefined) throw refuse('stale', `call \`${callId}\` was decided already`);
        await promise.resolve(request.decision);
        return { runId: ctx.key, callId, round: pending.round };
      },
    },
  });
}
