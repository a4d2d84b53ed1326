import { addUsage, type LanguageModelV1Request, type Message, recordAssistantTurn, type ToolChoice } from '@tiny/llm';
import type { Admission } from '../admission/admission.js';
import { admitCall, checkRunAlive } from '../admission/admit-call.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import type { RunOutcome } from '../events/agent-event.js';
import { executeBatch } from '../execution/execute-batch.js';
import { foldBatch } from '../execution/fold-batch.js';
import { createNestedCallRunner } from '../execution/nested-call.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import type { AgentRun, DeferredToolRequests } from '../run/agent-run.js';
import { allowedToolNames } from '../run/run-context.js';
import { callModel } from './call-model.js';
import type { LoopState, PendingCall } from './loop-state.js';

/** The user turn sent when the model stopped for tool calls but none could be read. */
export const DROPPED_TOOL_CALL_NUDGE =
  'Your last reply ended for a tool call, but no tool call could be read from it. Write the call again in the required format, or answer without tools.';

/** Settings for one loop run. @internal */
export interface LoopSettings {
  readonly streaming: boolean;
  readonly toolChoice: ToolChoice | undefined;
  readonly request: Partial<Omit<LanguageModelV1Request, 'messages' | 'tools' | 'toolChoice' | 'abortSignal'>>;
}

/**
 * Recomputes this turn's callable tools: the registry's direct tools that the host allows. The
 * registry returns the same array until a tool is registered, so an unchanged catalogue costs nothing.
 */
function refreshOffered(state: LoopState): void {
  const direct = state.registry.schemas();
  if (direct === state.offeredFrom) return;
  state.offeredFrom = direct;
  const allowed = allowedToolNames(state.context);
  const offered = new Map<string, RegisteredTool>();
  const schemas = [];
  for (const schema of direct) {
    if (allowed !== undefined && !allowed.has(schema.name)) continue;
    const entry = state.registry.get(schema.name) as RegisteredTool;
    offered.set(schema.name, entry);
    schemas.push(schema);
  }
  state.offered = offered;
  state.offeredSchemas = allowed === undefined ? direct : schemas;
}

/** Ids for calls: the provider's when present and new in this run, else `{modelCallId}-tool-{n}`. */
function settleCallIds<T extends { readonly id?: string | undefined }>(
  state: LoopState,
  calls: readonly T[],
  modelCallId: string,
): (T & { readonly id: string })[] {
  return calls.map((call, n) => {
    let id =
      call.id !== undefined && call.id !== '' && !state.seenCallIds.has(call.id) ? call.id : `${modelCallId}-tool-${n}`;
    while (state.seenCallIds.has(id)) id = `${id}'`;
    state.seenCallIds.add(id);
    return { ...call, id };
  });
}

function finish(state: LoopState, outcome: RunOutcome, text: string, deferred?: DeferredToolRequests): AgentRun {
  if (state.sink.active) state.sink.emit({ type: 'run_completed', runId: state.runId, outcome });
  return {
    runId: state.runId,
    outcome,
    messages: state.history,
    text,
    events: state.sink.recorded ?? [],
    usage: state.usage,
    modelCalls: state.modelCalls,
    toolCalls: state.toolCalls,
    executedTools: state.executedTools,
    toolMetadata: state.toolMetadata,
    stateUpdates: state.stateUpdates,
    ...(deferred === undefined ? {} : { deferred }),
  };
}

/**
 * The agent loop: model call → read calls through the dialect → admit the whole batch → execute
 * (serial or bounded-concurrent) → fold results in call order → repeat, until the model answers
 * without calls, a result ends the run, calls are deferred, or a budget runs out.
 * @internal
 */
export async function runLoop(state: LoopState, settings: LoopSettings): Promise<AgentRun> {
  const { sink, dialect, policy, limits } = state;
  if (sink.active) sink.emit({ type: 'run_started', runId: state.runId });
  refreshOffered(state);
  if (sink.active) {
    sink.emit({
      type: 'tools_advertised',
      direct: state.offeredSchemas.map((schema) => schema.name),
      schemaBytes: Buffer.byteLength(JSON.stringify(state.offeredSchemas)),
      dialect: dialect.kind,
    });
  }
  const nested = createNestedCallRunner(state);
  let nudges = 0;
  for (let turn = 1; ; turn += 1) {
    checkRunAlive(state);
    if (state.modelCalls >= limits.maxModelCalls) {
      if (sink.active) sink.emit({ type: 'limit_reached', limitKind: 'model_calls', limit: limits.maxModelCalls });
      throw new LimitExceededError({ limitKind: 'model_calls', limit: limits.maxModelCalls, messages: state.history });
    }
    if (sink.active) sink.emit({ type: 'turn_started', turn });
    if (turn > 1) refreshOffered(state);
    const modelCallId = `${state.runId}-m${state.modelCalls}`;
    state.modelCalls += 1;
    const tools = state.offeredSchemas;
    const messages: readonly Message[] = dialect.shouldSendToolSpecs
      ? state.history
      : dialect.toProviderMessages(state.history, tools, settings.toolChoice);
    const request: LanguageModelV1Request = {
      ...settings.request,
      messages,
      abortSignal: state.signal,
      ...(dialect.shouldSendToolSpecs && tools.length > 0
        ? { tools, ...(settings.toolChoice === undefined ? {} : { toolChoice: settings.toolChoice }) }
        : {}),
    };
    if (sink.active) sink.emit({ type: 'model_started', modelCallId, turn });
    const response = await callModel(state, request, modelCallId, settings.streaming);
    state.usage = addUsage(state.usage, response.usage);
    const parsed = dialect.parseResponse(response, tools);
    const calls = settleCallIds(state, parsed.calls, modelCallId);
    state.history.push(recordAssistantTurn(response, parsed, calls));
    if (sink.active) {
      sink.emit({
        type: 'model_completed',
        modelCallId,
        finishReason: response.finishReason,
        toolCallCount: calls.length,
        inputTokens: response.usage.inputTokens,
        outputTokens: response.usage.outputTokens,
      });
    }
    if (calls.length === 0) {
      if (response.finishReason === 'tool_calls' && tools.length > 0 && nudges < policy.droppedToolCallNudges) {
        nudges += 1;
        if (sink.active) sink.emit({ type: 'tool_call_dropped', modelCallId, nudge: nudges });
        state.history.push({ role: 'user', content: DROPPED_TOOL_CALL_NUDGE });
        continue;
      }
      return finish(state, 'final', parsed.text);
    }
    nudges = 0;
    const admissions: Admission[] = [];
    for (const call of calls) {
      const pending: PendingCall = { id: call.id, name: call.name, arguments: call.arguments, invalid: call.invalid };
      admissions.push(await admitCall(state, pending));
    }
    const outcomes = await executeBatch(state, admissions, nested);
    const folded = foldBatch(state, admissions, outcomes);
    if (sink.active) {
      sink.emit({
        type: 'turn_completed',
        turn,
        toolResultCount:
          admissions.length - (folded.deferred ? folded.deferred.calls.length + folded.deferred.approvals.length : 0),
        toolCallIds: calls.map((call) => call.id),
      });
    }
    if (folded.deferred)
      return finish(state, 'deferred', parsed.text, { ...folded.deferred, followUps: folded.followUps });
    for (const message of folded.followUps) state.history.push(message);
    if (folded.stop) return finish(state, folded.stop.outcome, folded.stop.text);
  }
}
