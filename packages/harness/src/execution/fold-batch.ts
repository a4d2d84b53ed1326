import type { Message, ToolMessage, UserMessage } from '@tiny/llm';
import { renderToolContent, resolveReturnDirect, type ToolContent, type ToolResult } from '@tiny/tools';
import type { Admission } from '../admission/admission.js';
import { callFormatFields } from '../agent/call-format.js';
import type { LoopState } from '../agent/loop-state.js';
import { appendBuilt } from '../agent/sealed-history.js';
import type { ArtifactRef } from '../artifacts/artifact-store.js';
import { persistArtifacts } from '../artifacts/persist-artifacts.js';
import { approvalDigest } from '../deferral/approval-digest.js';
import type { DeferredBatchData, DeferredCall } from '../deferral/deferred-call.js';
import { currentPolicyDigest } from '../deferral/resolve-deferred.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { recordedValue } from '../events/recorded-value.js';
import { middlewareContext, runAfterTool } from '../middleware/middleware-runner.js';
import { isRunStop } from '../run/run-stop.js';
import type { CallOutcome } from './execute-call.js';
import { eventSecrets, redactionOf, redactValue, scrubText, sensitiveValues, unknownCallSecrets } from './redaction.js';
import { unserializableResult } from './serializable-result.js';

/** What folding a batch decided. @internal */
export interface FoldedBatch {
  readonly deferred: Omit<DeferredBatchData, 'followUps'> | undefined;
  /** Follow-up user messages, to append after the batch's last tool row. */
  readonly followUps: readonly Message[];
  /** Set when a result ends the run. */
  readonly stop: { readonly outcome: 'return_direct' | 'terminated' | 'stopped'; readonly text: string } | undefined;
}

function followUpMessage(blocks: readonly ToolContent[]): UserMessage {
  return {
    role: 'user',
    content: blocks.map((block) => {
      if (block.type === 'image') {
        const url = block.data.kind === 'url' ? block.data.value : `data:${block.mediaType};base64,${block.data.value}`;
        return { type: 'image', mediaType: block.mediaType, data: { kind: 'url', value: url } };
      }
      return { type: 'text', text: renderToolContent(block) };
    }),
  };
}

/**
 * The text the model reads for a result, cut at `maxChars`. With the call's secrets, the second
 * line of defence at the boundary: the text is scrubbed again as rendered (blocks joined, so a
 * value split across blocks or lines is found whole), and the cut part again (a value cut off by
 * the limit leaves no prefix of 8+ characters, see `scrubText`).
 */
function modelText(
  state: LoopState,
  result: ToolResult,
  preferMarkdown: boolean,
  maxChars: number | undefined,
  secrets: readonly string[] | undefined,
): string {
  const rendered = result.outputForLlm(state.policy.preferMarkdown && preferMarkdown);
  const text = secrets === undefined ? rendered : scrubText(rendered, secrets);
  if (maxChars === undefined || text.length <= maxChars) return text;
  const cut = secrets === undefined ? text.slice(0, maxChars) : scrubText(text.slice(0, maxChars), secrets);
  return `${cut}\n[output truncated: ${maxChars} of ${text.length} characters]`;
}

/** What to keep out of the recorded answer to a call no tool of the run backs (it may quote the arguments). */
function unknownSecrets(state: LoopState, args: unknown): readonly string[] {
  const registered = state.registry.names().map((name) => state.registry.get(name));
  const known = [...state.offered.values(), ...state.deferredTools.values(), ...registered].filter(
    (item): item is NonNullable<typeof item> => item !== undefined,
  );
  return unknownCallSecrets(args, known, state.context.hostValues);
}

/**
 * The line that opens the result of a call the host approved with edited arguments
 * (`approveWithArgs`). The transcript keeps the assistant's call as the model made it (its
 * arguments are the model's own output: rewriting them would make the model "remember" a choice it
 * never made, and would break what binds that turn: the approval digest, the idempotency key, and a
 * provider's signed reasoning or encrypted turn items), and the result says what actually ran.
 * A tool result is plain text in every dialect and chat template (native `tool` role, prompt-guided
 * `<tool_response>`/ipython rows), so this needs no template support. Sensitive fields read `[redacted]`.
 * @internal
 */
export function hostEditNote(args: unknown, tool: ToolForNote | undefined): string {
  let shown: string;
  try {
    shown = JSON.stringify(redactValue(args, redactionOf(tool))) ?? 'null';
  } catch {
    shown = String(args);
  }
  return `[The host approved this call with edited arguments; the tool ran with ${shown}, not with the arguments in your call.]`;
}

type ToolForNote = Parameters<typeof redactionOf>[0];

/**
 * Folds a batch into the transcript in the original call order: one tool message per answered or
 * executed call (the admitted call id, never one a tool made up), `tool_completed` events
 * (recoveries get their `tool_started` here), `afterTool` middleware (recoveries included), host-only metadata to `toolMetadata`, follow-ups
 * collected for after the last tool row, and `ToolControl` applied. A fatal outcome stops the run:
 * the first one in call order is thrown after `tool_failed` events for it and for any concurrent
 * siblings whose results are discarded. Without an artifact store or middleware it settles without a
 * promise, and it throws (rather than rejects) a fatal outcome.
 * @internal
 */
export function foldBatch(
  state: LoopState,
  admissions: readonly Admission[],
  outcomes: ReadonlyMap<number, CallOutcome>,
): FoldedBatch | Promise<FoldedBatch> {
  throwFatal(state, admissions, outcomes);
  const fold: Fold = { followUps: [], calls: [], approvals: [], metadata: {}, stop: undefined, unreported: 0 };
  // Without an artifact store or `afterTool` hooks nothing on the way is asynchronous: no promise.
  if (state.artifactStore !== undefined || state.middleware.length > 0)
    return foldAsync(state, admissions, outcomes, fold);
  try {
    for (let index = 0; index < admissions.length; index += 1) {
      const admission = admissions[index] as Admission;
      const outcome = outcomes.get(index);
      if (foldDeferral(state, fold, index, admission, outcome)) continue;
      foldResult(state, fold, index, admission, outcome, producedResult(admission, outcome), NO_ARTIFACTS);
    }
  } catch (error) {
    failUnreported(state, admissions, outcomes, fold.unreported, error);
    throw error;
  }
  return folded(fold);
}

/** {@link foldBatch} when a call's result goes through the artifact store or `afterTool` hooks first. */
async function foldAsync(
  state: LoopState,
  admissions: readonly Admission[],
  outcomes: ReadonlyMap<number, CallOutcome>,
  fold: Fold,
): Promise<FoldedBatch> {
  try {
    for (let index = 0; index < admissions.length; index += 1) {
      const admission = admissions[index] as Admission;
      const outcome = outcomes.get(index);
      if (foldDeferral(state, fold, index, admission, outcome)) continue;
      const toolName = toolNameOf(admission);
      let produced = producedResult(admission, outcome);
      let artifacts: readonly ArtifactRef[] = NO_ARTIFACTS;
      if (state.artifactStore !== undefined) {
        const tool = admission.kind === 'execute' ? admission.entry.tool : undefined;
        const owner = tool ?? state.offered.get(toolName)?.tool ?? state.registry.get(toolName)?.tool;
        const source = { runId: state.runId, callId: admission.call.id, toolName };
        const max = owner?.policy.runtime.maxResultBytes;
        ({ result: produced, refs: artifacts } = await persistArtifacts(state.artifactStore, source, produced, max));
        state.artifacts.push(...artifacts);
      }
      const result =
        state.middleware.length === 0
          ? produced
          : await runAfterTool(state, { ...admission.call, toolName }, produced, middlewareContext(state, state.turn));
      foldResult(state, fold, index, admission, outcome, result, artifacts);
    }
  } catch (error) {
    failUnreported(state, admissions, outcomes, fold.unreported, error);
    throw error;
  }
  return folded(fold);
}

/** A batch being folded: what it decided so far, and the first call whose outcome event is not emitted yet. */
interface Fold {
  readonly followUps: Message[];
  readonly calls: DeferredCall[];
  readonly approvals: DeferredCall[];
  readonly metadata: Record<string, unknown>;
  stop: FoldedBatch['stop'];
  /**
   * The first call whose outcome event is not emitted yet: if folding throws (an `afterTool` hook,
   * the artifact store), the executed calls from there on are reported failed before it propagates.
   */
  unreported: number;
}

const NO_ARTIFACTS: readonly ArtifactRef[] = Object.freeze([]);

function folded(fold: Fold): FoldedBatch {
  const { calls, approvals } = fold;
  const deferred = calls.length + approvals.length > 0 ? { calls, approvals, metadata: fold.metadata } : undefined;
  return { deferred, followUps: fold.followUps, stop: fold.stop };
}

function toolNameOf(admission: Admission): string {
  return admission.kind === 'execute' ? admission.entry.name : admission.toolName;
}

/** The result a call produced: an answer's own, or an executed call's. */
function producedResult(admission: Admission, outcome: CallOutcome | undefined): ToolResult {
  return admission.kind === 'answer' ? admission.result : (outcome as Extract<CallOutcome, { kind: 'result' }>).result;
}

/** A fatal outcome stops the run: the first one in call order is thrown, after `tool_failed` events (see {@link foldBatch}). */
function throwFatal(
  state: LoopState,
  admissions: readonly Admission[],
  outcomes: ReadonlyMap<number, CallOutcome>,
): void {
  const { sink } = state;
  let fatalIndex = -1;
  for (let index = 0; index < admissions.length && fatalIndex < 0; index += 1)
    if (outcomes.get(index)?.kind === 'fatal') fatalIndex = index;
  if (fatalIndex < 0) return;
  const fatal = outcomes.get(fatalIndex) as Extract<CallOutcome, { kind: 'fatal' }>;
  const failing = admissions[fatalIndex] as Extract<Admission, { kind: 'execute' }>;
  // A run stop, or a middleware's wrapTool that broke its contract, is not the tool's failure.
  const error =
    isRunStop(fatal.error) || MiddlewareError.isInstance(fatal.error)
      ? fatal.error
      : new ToolExecutionError({ toolName: failing.entry.name, callId: failing.call.id, cause: fatal.error });
  // The message reaches the host, `run_failed` and spans: no sensitive argument value in it.
  const redaction = redactionOf(failing.entry.tool);
  const secrets = sensitiveValues(failing.input, redaction);
  if (secrets.length > 0) error.message = scrubText(error.message, secrets);
  const eventText = scrubText(error.message, eventSecrets(failing.input, redaction, state.policy.captureToolIo));
  if (sink.active) {
    for (const [index, outcome] of outcomes) {
      const admission = admissions[index] as Extract<Admission, { kind: 'execute' }>;
      sink.emit({
        type: 'tool_failed',
        callId: admission.call.id,
        toolName: admission.entry.name,
        startedAtMs: outcome.startedAt,
        durationMs: outcome.durationMs,
        error: index === fatalIndex ? eventText : 'discarded: another call in the batch failed',
      });
    }
  }
  throw error;
}

/** A call deferred at admission or by its tool: recorded for the host (true), or not a deferral (false). */
function foldDeferral(
  state: LoopState,
  fold: Fold,
  index: number,
  admission: Admission,
  outcome: CallOutcome | undefined,
): boolean {
  if (!(admission.kind === 'defer' || (admission.kind === 'execute' && outcome?.kind === 'defer'))) return false;
  const toolName = toolNameOf(admission);
  const deferral = admission.kind === 'defer' ? admission : (outcome as Extract<CallOutcome, { kind: 'defer' }>);
  const policy = deferral.approval ? currentPolicyDigest(state, toolName) : undefined;
  const deferred = {
    callId: admission.call.id,
    toolName,
    arguments: admission.call.arguments,
    reason: deferral.reason,
    digest: approvalDigest(
      { runId: state.runId, callId: admission.call.id, toolName, arguments: admission.call.arguments, policy },
      state.approvalSecret,
    ),
    ...(policy === undefined ? {} : { policy }),
  };
  (deferral.approval ? fold.approvals : fold.calls).push(deferred);
  // The state records a JSON copy taken now: the tool may keep and edit its metadata object.
  if (deferral.metadata !== undefined) fold.metadata[admission.call.id] = recordedValue(deferral.metadata);
  if (state.sink.active)
    state.sink.emit({ type: 'tool_deferred', callId: admission.call.id, toolName, reason: deferral.reason });
  fold.unreported = index + 1;
  return true;
}

/**
 * Folds an answered or executed call's result (after the artifact store and `afterTool` hooks, if
 * any): its outcome event, its tool message, metadata, state update, follow-up and control.
 */
function foldResult(
  state: LoopState,
  fold: Fold,
  index: number,
  admission: Admission,
  outcome: CallOutcome | undefined,
  hooked: ToolResult,
  artifacts: readonly ArtifactRef[],
): void {
  const { sink } = state;
  let result = hooked;
  const isAnswer = admission.kind === 'answer';
  const toolName = toolNameOf(admission);
  const tool = isAnswer ? undefined : (admission as Extract<Admission, { kind: 'execute' }>).entry.tool;
  const done = isAnswer ? undefined : (outcome as Extract<CallOutcome, { kind: 'result' }>);
  const startedAt = done?.startedAt ?? Date.now();
  // What the run records of the result's metadata and state update (event, `toolMetadata`,
  // `stateUpdates`): one frozen copy each, taken now, so the tool or a hook editing its objects later changes nothing recorded.
  const recordedMetadata = result.metadata === undefined ? undefined : recordedValue(result.metadata);
  let content: string;
  try {
    content = modelText(state, result, tool?.supportsMarkdown ?? false, tool?.maxResultSizeChars, done?.secrets);
  } catch (error) {
    // An `afterTool` hook replaced the result with one that cannot be serialised.
    result = unserializableResult(
      toolName,
      error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
    );
    content = result.output();
  }
  if (sink.active) {
    const capture = state.policy.captureToolIo;
    const owner = tool ?? state.offered.get(toolName)?.tool ?? state.deferredTools.get(toolName)?.tool;
    const secrets =
      result.isError || capture
        ? owner === undefined && isAnswer
          ? [
              ...eventSecrets(admission.call.arguments, undefined, capture),
              ...unknownSecrets(state, admission.call.arguments),
            ]
          : eventSecrets(admission.call.arguments, redactionOf(owner), capture)
        : [];
    const callId = admission.call.id;
    if (isAnswer) sink.emit({ type: 'tool_started', callId, toolName, ...callFormatFields(state, callId) });
    const written = state.callFormats.get(callId);
    const durationMs = done?.durationMs ?? 0;
    const outputBytes = Buffer.byteLength(content);
    // Written out field by field, the call's format and grammar after its tool name (no object spread per call).
    const completed =
      written === undefined
        ? ({ type: 'tool_completed', callId, toolName, startedAtMs: startedAt, durationMs, outputBytes } as const)
        : ({
            type: 'tool_completed',
            callId,
            toolName,
            format: written.format,
            grammar: written.grammar,
            startedAtMs: startedAt,
            durationMs,
            outputBytes,
          } as const);
    const plain = !capture && !result.isError && recordedMetadata === undefined && artifacts.length === 0;
    sink.emit(
      plain
        ? completed
        : {
            ...completed,
            ...(capture ? { output: scrubText(content, secrets) } : {}),
            ...(result.isError ? { error: scrubText(content, secrets) } : {}),
            ...(recordedMetadata === undefined ? {} : { metadata: recordedMetadata }),
            ...(artifacts.length === 0 ? {} : { artifacts }),
          },
    );
  }
  fold.unreported = index + 1;
  // The model reads that the host edited the call; a return-direct answer and events keep the tool's own text.
  const edited = !isAnswer && state.hostEdited.size > 0 && state.hostEdited.has(admission.call.id);
  const said = edited ? `${hostEditNote(state.hostEdited.get(admission.call.id), tool)}\n${content}` : content;
  const message: ToolMessage = result.isError
    ? { role: 'tool', toolCallId: admission.call.id, toolName, content: said, isError: true }
    : { role: 'tool', toolCallId: admission.call.id, toolName, content: said };
  appendBuilt(state.history, message);
  if (!isAnswer) state.executedTools.push(toolName);
  if (recordedMetadata !== undefined) {
    state.toolMetadata.push({ callId: admission.call.id, toolName, metadata: recordedMetadata });
  }
  if (result.followUp.length > 0) fold.followUps.push(followUpMessage(result.followUp));
  const control = result.control;
  if (control?.stateUpdate !== undefined) state.stateUpdates.push(recordedValue(control.stateUpdate) ?? null);
  if (fold.stop === undefined && !isAnswer) {
    if (control?.terminate === true) fold.stop = { outcome: 'terminated', text: content };
    else if (resolveReturnDirect(control, tool?.returnDirect ?? false))
      fold.stop = { outcome: 'return_direct', text: content };
    else if (control?.goto === 'end') fold.stop = { outcome: 'stopped', text: content };
  }
}

/**
 * Folding failed at call `from` (an `afterTool` hook or the artifact store threw): each call from
 * there on that ran gets `tool_failed` now, so no started call is left without its outcome event.
 */
function failUnreported(
  state: LoopState,
  admissions: readonly Admission[],
  outcomes: ReadonlyMap<number, CallOutcome>,
  from: number,
  error: unknown,
): void {
  if (!state.sink.active) return;
  const reason = `discarded: the batch could not be folded (${error instanceof Error ? error.name : 'a thrown value'})`;
  for (let index = from; index < admissions.length; index += 1) {
    const admission = admissions[index] as Admission;
    const outcome = outcomes.get(index);
    if (admission.kind !== 'execute' || outcome === undefined) continue;
    state.sink.emit({
      type: 'tool_failed',
      callId: admission.call.id,
      toolName: admission.entry.name,
      startedAtMs: outcome.startedAt,
      durationMs: outcome.durationMs,
      error: reason,
    });
  }
}

/** The answer given to calls the run ends without executing. */
export const CALL_NOT_EXECUTED = 'run stopped before this tool call was executed';

/**
 * Answers every call of the last assistant turn that has no tool message yet, so the transcript
 * stays paired when a control ends the run or sends it back to the model mid-batch.
 * @internal
 */
export function closeUnansweredCalls(state: LoopState, message: string = CALL_NOT_EXECUTED): void {
  const history = state.history;
  let index = history.length - 1;
  while (index >= 0 && history[index]?.role !== 'assistant') index -= 1;
  const assistant = history[index];
  if (assistant?.role !== 'assistant' || !assistant.toolCalls) return;
  const answered = new Set<string>();
  for (let at = index + 1; at < history.length; at += 1) {
    const row = history[at];
    if (row?.role === 'tool') answered.add(row.toolCallId);
  }
  for (const call of assistant.toolCalls) {
    if (answered.has(call.id)) continue;
    appendBuilt(history, { role: 'tool', toolCallId: call.id, toolName: call.name, content: message, isError: true });
  }
}
