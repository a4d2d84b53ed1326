import {
  addUsage,
  CALL_ENVELOPE_SCHEMA_NAME,
  callEnvelopeSchema,
  type DialectCall,
  type DialectParse,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type LanguageModelV1ResponseFormat,
  type Message,
  nativeDeclaredTools,
  nativeToolChoice,
  placeSystemPrompt,
  readCallEnvelope,
  recordAssistantTurn,
  shouldConstrainCalls,
  type ToolChoice,
  type ToolSchema,
  writesOwnFormat,
} from '@tiny/llm';
import type { Admission } from '../admission/admission.js';
import { admitModelCall, brokenTurnReason, checkRunAlive, refuseBrokenCall } from '../admission/admit-call.js';
import type { DeferredBatchData } from '../deferral/deferred-call.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { admitDecisions, checkDecisions, checkDigests, checkEditedArguments } from '../deferral/resolve-deferred.js';
import { type RefusedTurn, RUN_STATE_VERSION, type RunState, unansweredCalls } from '../deferral/run-state.js';
import { signRunState } from '../deferral/run-state-signature.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { ListenerError } from '../errors/listener-error.js';
import { ToolChoiceIgnoredError } from '../errors/tool-choice-ignored-error.js';
import { ToolChoiceUnavailableError } from '../errors/tool-choice-unavailable-error.js';
import type { AgentEvent, RunOutcome } from '../events/agent-event.js';
import { recordedValue } from '../events/recorded-value.js';
import { executeBatch } from '../execution/execute-batch.js';
import type { NestedCallRunner } from '../execution/execute-call.js';
import { closeUnansweredCalls, foldBatch } from '../execution/fold-batch.js';
import { createNestedCallRunner } from '../execution/nested-call.js';
import { reconcileToolEffects } from '../ledger/reconcile-tool-effects.js';
import {
  type AppliedControl,
  middlewareContext,
  runAfterHooks,
  runBeforeModel,
} from '../middleware/middleware-runner.js';
import { cacheHitRatio } from '../prefix/cache-hit-ratio.js';
import { observePrefix } from '../prefix/observe-prefix.js';
import { type AgentRun, createDeferredToolRequests, type DeferredToolRequests } from '../run/agent-run.js';
import type { RunContext } from '../run/run-context.js';
import { normalizeToolChoice } from '../run/validate-run-options.js';
import { recordCallFormats } from './call-format.js';
import { callModelThroughMiddleware } from './call-model.js';
import { lazyRequestMessages } from './lazy-request-messages.js';
import type { LoopState, PendingCall } from './loop-state.js';
import { catalogueCurrent, resolveCatalogue } from './resolve-catalogue.js';
import { appendBuilt, appendMessage } from './sealed-history.js';

/** The user turn sent when the model stopped for tool calls but none could be read. */
export const DROPPED_TOOL_CALL_NUDGE =
  'Your last reply ended for a tool call, but no tool call could be read from it. Write the call again in the required format, or answer without tools.';

/** The user turn that spells a forced tool choice out after a response ignored it. */
export function toolChoiceReminder(choice: ToolChoice): string {
  if (choice.type === 'none')
    return 'Tools are disabled for this reply (tool choice `none`), so the tool calls in your last reply were not run. Answer in plain text without calling any tool.';
  if (choice.type === 'tool')
    return `Your last reply did not call the tool \`${choice.toolName}\`, and this reply must (tool choice: that tool). Reply with a call to \`${choice.toolName}\` only, in the required format, and no other tool.`;
  return 'Your last reply did not call a tool, and this reply must (tool choice `required`). Reply with a call to one of the offered tools, in the required format.';
}

/**
 * Whether a response ignored the forced choice: `none` with calls; `required` without calls; a
 * named tool without a call to it or with calls to other tools. Exhaustive: a choice of any other
 * type counts as ignored (validation at the option boundary keeps such a choice from arriving).
 * The choice was checked against the offered tools before the model call (see
 * {@link checkChoiceAvailable}), so a named tool is offered and `required` has tools to call.
 */
function choiceIgnored(choice: ToolChoice, calls: readonly DialectCall[]): boolean {
  switch (choice.type) {
    case 'auto':
      return false;
    case 'none':
      return calls.length > 0;
    case 'required':
      return calls.length === 0;
    case 'tool':
      return calls.length === 0 || calls.some((call) => call.name !== choice.toolName);
    default: {
      const unknown: never = choice;
      return unknown !== undefined;
    }
  }
}

const NONE: ToolChoice = { type: 'none' };

/** Whether two choices are the same (`undefined` is `auto`). */
function sameChoice(a: ToolChoice | undefined, b: ToolChoice | undefined): boolean {
  const left = a ?? { type: 'auto' };
  const right = b ?? { type: 'auto' };
  if (left.type !== right.type) return false;
  return left.type !== 'tool' || (right.type === 'tool' && left.toolName === right.toolName);
}

/**
 * A forced choice that cannot be honoured this turn fails the run before the model is called: a
 * named tool that is not offered (exact name), or `required` with no tool offered.
 * @throws {ToolChoiceUnavailableError}
 */
function checkChoiceAvailable(choice: ToolChoice | undefined, tools: readonly ToolSchema[], turn: number): void {
  const unavailable =
    (choice?.type === 'tool' && !tools.some((tool) => tool.name === choice.toolName)) ||
    (choice?.type === 'required' && tools.length === 0);
  if (unavailable && choice !== undefined)
    throw new ToolChoiceUnavailableError({ toolChoice: choice, offeredTools: tools.map((tool) => tool.name), turn });
}

/** Text dialects whose calls a JSON call envelope can stand for (code dialects write programs). */
const ENVELOPE_DIALECTS: ReadonlySet<string> = new Set(['tagged_json', 'pformat']);

/** The system text that tells a constrained model the shape its reply must take. */
function envelopeInstructions(choice: ToolChoice): string {
  const call = 'a JSON object {"name": "<tool name>", "arguments": {<the tool\'s arguments>}} to call one tool';
  if (choice.type === 'tool')
    return `Reply with exactly one JSON object and nothing else: {"name": "${choice.toolName}", "arguments": {<its arguments>}}.`;
  if (choice.type === 'required') return `Reply with exactly one JSON object and nothing else: ${call}.`;
  return `Reply with exactly one JSON object and nothing else: ${call}, or {"answer": "<your answer>"} to answer without a tool.`;
}

/**
 * A constrained reply read as the call envelope it was asked for: the call (arguments as written;
 * anything but an object is passed on invalid, for admission to refuse) or the plain answer.
 * Undefined when the text is not an envelope (the server did not enforce the schema).
 */
function envelopeParse(content: string): DialectParse | undefined {
  const envelope = readCallEnvelope(content);
  if (envelope === undefined) return undefined;
  if (envelope.kind === 'answer') return { text: envelope.text, replayText: envelope.text, calls: [], diagnostics: [] };
  const args = envelope.arguments;
  const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
  const call: DialectCall = isObject
    ? { name: envelope.name, arguments: args, source: 'bare_json' }
    : {
        name: envelope.name,
        arguments: JSON.stringify(args) ?? '',
        invalid: 'the envelope\'s "arguments" is not a JSON object',
        source: 'bare_json',
      };
  return { text: '', replayText: content, calls: [call], diagnostics: [] };
}

/** Resolves a deferred batch without leaving the loop; must decide every pending call. */
export type DeferredToolHandler = (
  pending: DeferredToolRequests,
  context: RunContext,
) => DeferredToolResults | Promise<DeferredToolResults>;

/** What `beforeModel` gives when the run has no middleware. */
const NO_PATCH: Awaited<ReturnType<typeof runBeforeModel>> = { patch: {} };

/** Settings for one loop run. @internal */
export interface LoopSettings {
  readonly streaming: boolean;
  readonly toolChoice: ToolChoice | undefined;
  readonly request: Partial<Omit<LanguageModelV1Request, 'messages' | 'tools' | 'toolChoice' | 'abortSignal'>>;
  readonly deferredToolHandler: DeferredToolHandler | undefined;
  /**
   * Resume: the ledger is reconciled first; then the pending batch is decided with the host's
   * results (a paused run), or the checkpoint's open calls are run (a crashed run).
   */
  readonly resume?:
    | {
        readonly pending?: DeferredBatchData | undefined;
        readonly results?: DeferredToolResults | undefined;
        /** Called once the decisions are checked, before anything runs; throws to refuse a repeated resume. */
        readonly claim?: (() => void | Promise<void>) | undefined;
        /** A checkpoint of a broken turn: its open calls are refused, never run. */
        readonly refusedTurn?: RefusedTurn | undefined;
      }
    | undefined;
  /** Receives the run state after each assistant turn with tool calls is recorded, before any of them runs. */
  readonly onCheckpoint?: ((state: RunState) => void | Promise<void>) | undefined;
}

/**
 * The run as plain JSON; `pending` for a paused run, absent for a checkpoint; `refusedTurn` for the
 * checkpoint of a broken turn, so the refusal survives a crash.
 */
function snapshot(
  state: LoopState,
  choice: ToolChoice | undefined,
  pending?: DeferredBatchData,
  refusedTurn?: RefusedTurn,
): RunState {
  const base = {
    runId: state.runId,
    ...(state.context.threadId === undefined ? {} : { threadId: state.context.threadId }),
    messages: [...state.history],
    ...(pending === undefined ? {} : { pending }),
    budgets: { modelCalls: state.modelCalls, toolCalls: state.toolCalls },
    // A frozen copy: the host's checkpoint never aliases the run's own counters.
    usage: Object.freeze({ ...state.usage }),
    ...(refusedTurn === undefined ? {} : { refusedTurn }),
    prefix: state.prefix.state(state.discovery?.promoted() ?? []),
  };
  const forced = choice === undefined || choice.type === 'auto' ? {} : { toolChoice: choice };
  const open = unansweredCalls(state.history).map((call) => call.id);
  // Open calls cut off before their block closed go with it (version 3), so a resume refuses them too.
  const cutOffCalls = open.filter((id) => state.callFormats.get(id)?.partial === true);
  const cut = cutOffCalls.length > 0 ? { cutOffCalls } : {};
  // Open calls the adapter refused go with it (version 4), so a resume never runs them either.
  const refusedCalls = open.filter((id) => state.callFormats.get(id)?.refused === true);
  const written: RunState =
    refusedCalls.length > 0
      ? { version: RUN_STATE_VERSION, ...base, ...forced, ...cut, refusedCalls }
      : cutOffCalls.length > 0
        ? { version: 3, ...base, ...forced, cutOffCalls }
        : // The run's forced choice goes with it (version 2), so a resume enforces it too.
          forced.toolChoice === undefined
          ? { version: 1, ...base }
          : { version: 2, ...base, ...forced };
  // Signed last, over everything above, so no field can be edited, dropped or added unseen.
  return state.stateSecret === undefined ? written : signRunState(written, state.stateSecret);
}

type ModelCompleted = Extract<AgentEvent, { type: 'model_completed' }>;

/**
 * The `model_completed` event of a response; `refusedCallIds` holds the provider ids of the calls
 * the adapter refused. Optional fields are added in place, in the event's field order, only when
 * present (no object spread per turn).
 */
function modelCompleted(modelCallId: string, response: LanguageModelV1Response, toolCallCount: number): ModelCompleted {
  const event: { -readonly [K in keyof ModelCompleted]: ModelCompleted[K] } = {
    type: 'model_completed',
    modelCallId,
    finishReason: response.finishReason,
    toolCallCount,
  };
  const refused: string[] = [];
  for (const call of response.toolCalls) if (call.refused === true) refused.push(call.id);
  if (refused.length > 0) event.refusedCallIds = refused;
  const usage = response.usage;
  event.inputTokens = usage.inputTokens;
  event.outputTokens = usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) event.cachedInputTokens = usage.cachedInputTokens;
  if (response.refusal !== undefined) event.refusal = response.refusal;
  // A frozen copy: the model keeps its response and may edit its warnings later.
  if (response.warnings.length > 0)
    event.warnings = recordedValue(response.warnings) as unknown as typeof response.warnings;
  return event;
}

/** Each declaration's JSON size in bytes (declarations are shared by every harness of a tool). */
const declarationBytes = new WeakMap<ToolSchema, number>();

/** The UTF-8 size of `JSON.stringify(schemas)`, each declaration serialised once per process. */
function schemasBytes(schemas: readonly ToolSchema[]): number {
  // `[` and `]`, and a comma between two declarations.
  let bytes = schemas.length === 0 ? 2 : schemas.length + 1;
  for (const schema of schemas) {
    let size = declarationBytes.get(schema);
    if (size === undefined) {
      size = Buffer.byteLength(JSON.stringify(schema) ?? 'null');
      declarationBytes.set(schema, size);
    }
    bytes += size;
  }
  return bytes;
}

/** A deep copy of `value`, frozen at every depth (what `afterModel` hooks are given to read). */
function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const stack: unknown[] = [copy];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return copy;
}

/** The open calls of the last assistant turn, decoded for admission (as the provider sent them). */
function openCalls(state: LoopState): PendingCall[] {
  const open = new Set(unansweredCalls(state.history).map((call) => call.id));
  const assistant = [...state.history].reverse().find((message) => message.role === 'assistant');
  if (assistant?.role !== 'assistant') return [];
  return (assistant.toolCalls ?? [])
    .filter((call) => open.has(call.id))
    .map((call) => {
      if (call.arguments.trim() === '') return { id: call.id, name: call.name, arguments: {} };
      try {
        return { id: call.id, name: call.name, arguments: JSON.parse(call.arguments) as unknown };
      } catch (error) {
        return { id: call.id, name: call.name, arguments: call.arguments, invalid: (error as Error).message };
      }
    });
}

/**
 * Ids for calls: the provider's when present, new in this run and free of `/`, else
 * `{modelCallId}-tool-{n}`. `/` is the harness's own: nested calls are minted `<parent>/<n>`, so a
 * provider id with a `/` is re-keyed and can never name (and take the approval or ledger row of) a
 * nested call, in this process or after a resume.
 */
function settleCallIds<T extends { readonly id?: string | undefined }>(
  state: LoopState,
  calls: readonly T[],
  modelCallId: string,
): (T & { readonly id: string })[] {
  // A loop, not `map` with a closure made per turn (recompiled after each full collection).
  const settled: (T & { readonly id: string })[] = [];
  for (let n = 0; n < calls.length; n += 1) {
    const call = calls[n] as T;
    let id =
      call.id !== undefined && call.id !== '' && !call.id.includes('/') && !state.seenCallIds.has(call.id)
        ? call.id
        : `${modelCallId}-tool-${n}`;
    while (state.seenCallIds.has(id)) id = `${id}'`;
    state.seenCallIds.add(id);
    settled.push(id === call.id ? (call as T & { readonly id: string }) : { ...call, id });
  }
  return settled;
}

function finish(
  state: LoopState,
  outcome: RunOutcome,
  text: string,
  extra: Partial<Pick<AgentRun, 'interrupt'>> & { deferred?: DeferredBatchData; toolChoice?: ToolChoice } = {},
): AgentRun {
  state.sink.throwIfFailed();
  if (state.sink.active) state.sink.emit({ type: 'run_completed', runId: state.runId, outcome });
  const deferred = extra.deferred === undefined ? undefined : createDeferredToolRequests(extra.deferred);
  const hitRatio = cacheHitRatio(state.usage);
  return {
    runId: state.runId,
    outcome,
    // A frozen copy: editing the run's messages changes nothing the harness still holds.
    messages: Object.freeze(state.history.slice()),
    text,
    events: state.sink.recorded ?? [],
    usage: state.usage,
    ...(hitRatio === undefined ? {} : { cacheHitRatio: hitRatio }),
    modelCalls: state.modelCalls,
    toolCalls: state.toolCalls,
    executedTools: state.executedTools,
    toolMetadata: state.toolMetadata,
    artifacts: state.artifacts,
    stateUpdates: state.stateUpdates,
    ...(deferred === undefined ? {} : { deferred, state: snapshot(state, extra.toolChoice, extra.deferred) }),
    ...(extra.interrupt === undefined ? {} : { interrupt: extra.interrupt }),
  } as AgentRun;
}

/**
 * Applies a middleware control at a checkpoint (emitting `control_applied`). Returns the finished
 * run when the control ends it, `'model'` when the loop should ask the model again, else undefined.
 */
function applyControl(state: LoopState, applied: AppliedControl, lastText: string): AgentRun | 'model' | undefined {
  const { control, by } = applied;
  const emit = (label: string, detail: string) => {
    if (state.sink.active) state.sink.emit({ type: 'control_applied', control: label, detail, by });
  };
  switch (control.type) {
    case 'continue':
      return undefined;
    case 'update_state':
      // A frozen copy taken now: the hook may keep and edit the object it returned.
      state.stateUpdates.push(recordedValue(control.update) ?? null);
      return undefined;
    case 'jump_to':
      emit(`jump_to:${control.target}`, '');
      if (control.target === 'tools') return undefined;
      if (control.target === 'end') {
        closeUnansweredCalls(state);
        return finish(state, 'stopped', lastText);
      }
      closeUnansweredCalls(state, 'skipped: the run went back to the model');
      for (const message of control.messages ?? []) appendMessage(state.history, message);
      return 'model';
    case 'stop_with_final':
      emit('stop_with_final', control.text);
      closeUnansweredCalls(state);
      return finish(state, 'stopped', control.text);
    case 'interrupt':
      emit('interrupt', control.message);
      closeUnansweredCalls(state);
      return finish(state, 'interrupted', control.message, {
        interrupt: { node: control.node, message: control.message, by },
      });
  }
}

const callIdOf = (admission: Admission): string => admission.call.id;

/**
 * Executes and folds a batch, resolves deferrals inline when a handler is set, then applies
 * `afterTools` controls. Returns the finished run, `'model'`, or undefined to continue.
 */
async function completeBatch(
  state: LoopState,
  settings: LoopSettings,
  admissions: readonly Admission[],
  nested: NestedCallRunner,
  lastText: string,
  heldFollowUps: readonly Message[],
): Promise<AgentRun | 'model' | undefined> {
  const executed = executeBatch(state, admissions, nested);
  const outcomes = executed instanceof Promise ? await executed : executed;
  const folding = foldBatch(state, admissions, outcomes);
  const folded = folding instanceof Promise ? await folding : folding;
  const followUps = heldFollowUps.length === 0 ? folded.followUps : [...heldFollowUps, ...folded.followUps];
  if (state.sink.active) {
    const deferredCount = folded.deferred ? folded.deferred.calls.length + folded.deferred.approvals.length : 0;
    state.sink.emit({
      type: 'turn_completed',
      turn: state.turn,
      toolResultCount: admissions.length - deferredCount,
      toolCallIds: admissions.map(callIdOf),
    });
  }
  if (folded.deferred) {
    const pending = { ...folded.deferred, followUps };
    if (settings.deferredToolHandler === undefined)
      return finish(state, 'deferred', lastText, {
        deferred: pending,
        ...(settings.toolChoice === undefined ? {} : { toolChoice: settings.toolChoice }),
      });
    const results = await settings.deferredToolHandler(createDeferredToolRequests(pending), state.context);
    checkDecisions(pending, results, state.history);
    checkDigests(state.runId, state.approvalSecret, pending, results);
    await checkEditedArguments(state, pending, results);
    const resolved = await admitDecisions(state, pending, results);
    return completeBatch(state, settings, resolved, nested, lastText, followUps);
  }
  for (const message of followUps) appendMessage(state.history, message);
  if (folded.stop) return finish(state, folded.stop.outcome, folded.stop.text);
  if (state.middleware.length === 0) return undefined;
  const context = middlewareContext(state, state.turn);
  const control = await runAfterHooks(state, 'afterTools', (middleware) => middleware.afterTools?.(context));
  return control ? applyControl(state, control, lastText) : undefined;
}

/**
 * The agent loop: model call → read calls through the dialect → admit the whole batch → execute
 * (serial or bounded-concurrent) → fold results in call order → repeat, until the model answers
 * without calls, a result or a middleware ends the run, calls are deferred, or a budget runs out.
 * On resume, the decided batch is processed first.
 * @internal
 */
export async function runLoop(state: LoopState, settings: LoopSettings): Promise<AgentRun> {
  const { sink, dialect, policy, limits } = state;
  if (sink.active) sink.emit({ type: 'run_started', runId: state.runId });
  await resolveCatalogue(state);
  if (sink.active) {
    sink.emit({
      type: 'tools_advertised',
      direct: [...state.offered.keys()].filter((name) => !state.discovery?.bridgeNames.includes(name)),
      schemaBytes: schemasBytes(state.offeredSchemas),
      deferred: state.discovery?.catalogue.size ?? 0,
      dialect: dialect.kind,
    });
  }
  const nested = createNestedCallRunner(state);
  if (settings.resume) {
    const { pending, results } = settings.resume;
    if (pending !== undefined) {
      const decided = results ?? new DeferredToolResults();
      checkDecisions(pending, decided, state.history);
      checkDigests(state.runId, state.approvalSecret, pending, decided);
      await checkEditedArguments(state, pending, decided);
      await settings.resume.claim?.();
    }
    await reconcileToolEffects(state);
    const admissions: Admission[] = [];
    if (pending !== undefined) {
      admissions.push(...(await admitDecisions(state, pending, results ?? new DeferredToolResults())));
    } else {
      const refused = settings.resume.refusedTurn;
      for (const call of openCalls(state))
        admissions.push(
          refused === undefined
            ? await admitModelCall(state, call)
            : refuseBrokenCall(state, call, refused.reason, refused.modelCallId),
        );
    }
    if (admissions.length > 0) {
      const ended = await completeBatch(state, settings, admissions, nested, '', pending?.followUps ?? []);
      if (ended !== undefined && ended !== 'model') return ended;
    }
  }
  let nudges = 0;
  // Responses in a row that ignored the run's forced tool choice (reset when one honours it).
  let ignoredChoices = 0;
  for (;;) {
    checkRunAlive(state);
    if (state.modelCalls >= limits.maxModelCalls) {
      if (sink.active) sink.emit({ type: 'limit_reached', limitKind: 'model_calls', limit: limits.maxModelCalls });
      throw new LimitExceededError({ limitKind: 'model_calls', limit: limits.maxModelCalls, messages: state.history });
    }
    state.turn += 1;
    const turn = state.turn;
    if (sink.active) sink.emit({ type: 'turn_started', turn });
    if ((turn > 1 || settings.resume) && !catalogueCurrent(state)) await resolveCatalogue(state);
    // A hook context only for middleware to read (none made per turn without middleware).
    const context = state.middleware.length === 0 ? undefined : middlewareContext(state, turn);
    const before =
      context === undefined
        ? NO_PATCH
        : await runBeforeModel(
            state,
            {
              tools: state.offeredSchemas,
              toolChoice: settings.toolChoice,
              responseFormat: settings.request.responseFormat,
            },
            context,
          );
    if (before.control) {
      const applied = applyControl(state, before.control, '');
      if (applied !== undefined && applied !== 'model') return applied;
    }
    const patch = before.patch;
    // Stable order over the tools as sent (middleware's own, the structured output tool, included):
    // tools offered before keep their places, new ones are appended; declarations serialised canonically.
    const tools = state.prefix.order(patch.tools ?? state.offeredSchemas);
    const runChoice = settings.toolChoice;
    const patched =
      patch.toolChoice === undefined
        ? undefined
        : normalizeToolChoice('beforeModel', 'toolChoice of the beforeModel patch', patch.toolChoice);
    // Only a patch that really changes the choice hands its checking to the middleware; `none`,
    // from the run or from a patch, holds whatever else is patched: no call of this turn runs.
    const changed = patched !== undefined && !sameChoice(patched, runChoice);
    const noneHolds = runChoice?.type === 'none' || patched?.type === 'none';
    const toolChoice = noneHolds ? NONE : changed ? patched : runChoice;
    // The choice each reply is checked against (undefined: a middleware's changed choice, its to check).
    const forced = noneHolds ? NONE : changed ? undefined : runChoice;
    checkChoiceAvailable(toolChoice, tools, turn);
    // Copied: the request holds the format as it is now, and the prefix tracker compares it by content
    // (a format object reused and edited between turns is a new format).
    const shownFormat = patch.responseFormat ?? settings.request.responseFormat;
    const responseFormat = shownFormat === undefined ? undefined : structuredClone(shownFormat);
    const modelCallId = `${state.runId}-m${state.modelCalls}`;
    state.modelCalls += 1;
    // A native request declares its `json` tools on the wire; `xml` and `ptype` tools are shown in
    // the prompt in their own syntax, and their calls are replayed as the text the model wrote.
    const ownFormats = dialect.shouldSendToolSpecs && tools.some(writesOwnFormat);
    // The history itself (copied into the request below) or the messages built from it.
    let messages: readonly Message[] =
      dialect.shouldSendToolSpecs && !ownFormats
        ? state.history
        : dialect.toProviderMessages(state.history, tools, toolChoice);
    const wireTools = !dialect.shouldSendToolSpecs ? [] : ownFormats ? nativeDeclaredTools(tools) : tools;
    const wireChoice = ownFormats ? nativeToolChoice(toolChoice, tools) : toolChoice;
    // A prompt-guided model on a server that enforces schemas gets the shape of a valid reply.
    const constrained =
      !dialect.shouldSendToolSpecs &&
      ENVELOPE_DIALECTS.has(dialect.kind) &&
      responseFormat === undefined &&
      (toolChoice?.type !== 'tool' || tools.some((tool) => tool.name === toolChoice.toolName)) &&
      shouldConstrainCalls(state.model.profile, toolChoice, tools.length);
    const envelopeFormat: LanguageModelV1ResponseFormat | undefined = constrained
      ? { type: 'json_schema', name: CALL_ENVELOPE_SCHEMA_NAME, schema: callEnvelopeSchema(tools, toolChoice) }
      : undefined;
    if (constrained)
      messages = [{ role: 'system', content: envelopeInstructions(toolChoice ?? { type: 'auto' }) }, ...messages];
    if (patch.systemMessages !== undefined && patch.systemMessages.length > 0) {
      messages = [...patch.systemMessages.map((text): Message => ({ role: 'system', content: text })), ...messages];
    }
    // Templates without a system role: system text and tool instructions go into the first user turn.
    // Fingerprinted before the placement, so a system text change is named as one; the placement
    // itself is a setting (a resume under another profile changes the wire).
    const unplaced = messages;
    if (state.model.profile.systemPrompt === 'first_user') messages = placeSystemPrompt(messages, 'first_user');
    // A snapshot: the request holds what was sent, whatever the history gains after (a middleware
    // or model that keeps the request sees this request's messages, not later turns'), in an array
    // of its own for the model to change. The history is copied when first read, not per turn: it
    // only grows, so its first messages are the history as sent whenever they are read.
    // Built field by field: `messages` is added as the accessor, not redefined as one after the
    // fact (a data property turned accessor puts the object in dictionary mode: every read slow).
    const request = { ...settings.request } as {
      -readonly [K in keyof LanguageModelV1Request]: LanguageModelV1Request[K];
    };
    if (messages === state.history) lazyRequestMessages(request, state.history, state.history.length);
    else request.messages = messages;
    request.abortSignal = state.signal;
    if (envelopeFormat !== undefined) request.responseFormat = envelopeFormat;
    else if (responseFormat !== undefined) request.responseFormat = responseFormat;
    if (wireTools.length > 0) {
      request.tools = wireTools;
      if (wireChoice !== undefined) request.toolChoice = wireChoice;
    }
    const prefixFingerprint = observePrefix(state, tools, unplaced, modelCallId, {
      toolChoice: wireTools.length > 0 ? wireChoice : undefined,
      responseFormat: request.responseFormat,
      ...(state.model.profile.systemPrompt === 'first_user' ? { systemPlacement: 'first_user' as const } : {}),
      ...(request.providerOptions === undefined ? {} : { providerOptions: request.providerOptions }),
    });
    if (sink.active) sink.emit({ type: 'model_started', modelCallId, turn, prefixFingerprint });
    const response = await callModelThroughMiddleware(state, request, modelCallId, settings.streaming, tools, context);
    state.usage = addUsage(state.usage, response.usage);
    const parsed =
      (constrained ? envelopeParse(response.content) : undefined) ??
      dialect.parseResponse(response, tools, { toolCallFormats: state.model.profile.toolCallFormats });
    const ignored = forced !== undefined && choiceIgnored(forced, parsed.calls);
    let action: 'retry' | 'error' | 'accept' = 'accept';
    if (ignored) {
      ignoredChoices += 1;
      const mode = policy.toolChoiceIgnored;
      action = mode === 'accept' ? 'accept' : mode === 'retry_then_error' && ignoredChoices === 1 ? 'retry' : 'error';
    } else if (forced !== undefined) ignoredChoices = 0;
    // A turn whose calls are not taken is recorded without them: they never run, and the model
    // never sees them as made. Calls under `none` are never taken, whatever the policy.
    const dropCalls = ignored && (action !== 'accept' || forced?.type === 'none');
    const calls = dropCalls ? [] : settleCallIds(state, parsed.calls, modelCallId);
    recordCallFormats(state, calls);
    appendBuilt(state.history, recordAssistantTurn(response, dropCalls ? { replayText: parsed.text } : parsed, calls));
    if (sink.active) sink.emit(modelCompleted(modelCallId, response, calls.length));
    if (ignored && forced !== undefined) {
      const calledTools = parsed.calls.map((call) => call.name);
      if (sink.active)
        sink.emit({
          type: 'tool_choice_ignored',
          modelCallId,
          toolChoice: forced,
          calledTools,
          attempt: ignoredChoices,
          action,
        });
      if (action === 'error')
        throw new ToolChoiceIgnoredError({
          toolChoice: forced,
          calledTools,
          attempts: ignoredChoices,
          messages: state.history,
        });
      if (action === 'retry') {
        appendBuilt(state.history, { role: 'user', content: toolChoiceReminder(forced) });
        continue;
      }
      // `accept` under `none`: the text is the answer; its calls never run.
      if (forced.type === 'none') return finish(state, 'final', parsed.text);
    }
    const pendingCalls: PendingCall[] = calls.map((call) =>
      call.refused === true
        ? { id: call.id, name: call.name, arguments: call.arguments, invalid: call.invalid, refused: true }
        : { id: call.id, name: call.name, arguments: call.arguments, invalid: call.invalid },
    );
    if (state.middleware.length > 0) {
      // Hooks read a frozen copy: admission decides from `pendingCalls` (the calls as read, refusals
      // included), so a hook may drop or answer calls through a control, never rename or un-refuse one.
      const input = { response, calls: frozenCopy(pendingCalls), text: parsed.text };
      // A context taken now: its transcript has the turn just recorded.
      const after = middlewareContext(state, turn);
      const control = await runAfterHooks(state, 'afterModel', (middleware) => middleware.afterModel?.(input, after));
      if (control) {
        const applied = applyControl(state, control, parsed.text);
        if (applied === 'model') continue;
        if (applied !== undefined) return applied;
      }
    }
    if (calls.length === 0) {
      if (response.finishReason === 'tool_calls' && tools.length > 0 && nudges < policy.droppedToolCallNudges) {
        nudges += 1;
        if (sink.active) sink.emit({ type: 'tool_call_dropped', modelCallId, nudge: nudges });
        appendBuilt(state.history, { role: 'user', content: DROPPED_TOOL_CALL_NUDGE });
        continue;
      }
      return finish(state, 'final', parsed.text);
    }
    nudges = 0;
    const broken = policy.brokenTurnCalls === 'refuse' ? brokenTurnReason(response.finishReason) : undefined;
    if (settings.onCheckpoint) {
      const refusedTurn = broken === undefined ? undefined : { reason: broken, modelCallId };
      try {
        await settings.onCheckpoint(snapshot(state, settings.toolChoice, undefined, refusedTurn));
      } catch (error) {
        throw new ListenerError({ listener: 'onCheckpoint', cause: error });
      }
    }
    const admissions: Admission[] = [];
    if (broken !== undefined)
      for (const call of pendingCalls) admissions.push(refuseBrokenCall(state, call, broken, modelCallId));
    // By index: a `for…of` whose body may `await` allocates an iterator result per call.
    else
      for (let index = 0; index < pendingCalls.length; index += 1) {
        // Most admissions settle synchronously: awaiting only a promise saves a microtask per call.
        const admission = admitModelCall(state, pendingCalls[index] as PendingCall);
        admissions.push(admission instanceof Promise ? await admission : admission);
      }
    const ended = await completeBatch(state, settings, admissions, nested, parsed.text, []);
    if (ended !== undefined && ended !== 'model') return ended;
  }
}
