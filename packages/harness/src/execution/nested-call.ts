import {
  ApprovalRequiredError,
  CallDeferredError,
  completeTool,
  modelFacingParameters,
  prepareToolArguments,
  ToolInputError,
  ToolNotFoundError,
  type ToolResult,
  toolOrigin,
  validateToolArguments,
} from '@tiny/tools';
import { checkRunAlive } from '../admission/admit-call.js';
import { sealArguments } from '../admission/seal-arguments.js';
import { snapshotArguments } from '../admission/snapshot-arguments.js';
import type { LoopState, PendingCall } from '../agent/loop-state.js';
import { isApprovedCall } from '../deferral/approved-call.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { recordedValue } from '../events/recorded-value.js';
import { middlewareContext, runBeforeTool } from '../middleware/middleware-runner.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { allowedToolNames } from '../run/run-context.js';
import { isRunStop, runStopError } from '../run/run-stop.js';
import { isWithheld } from '../toolsets/withheld-tools.js';
import { type CallOutcome, executeCall, type NestedCallRunner } from './execute-call.js';
import { describeSafely } from './plain-data.js';
import { eventSecrets, redactionOf, redactValue, scrubText, sensitiveValues } from './redaction.js';
import { lineageSecrets, scrubResult } from './scrub-outcome.js';
import { scrubThrown, scrubValue } from './scrub-value.js';
import type { LazyCallSignal } from './tool-context.js';

const nestedEntries = new WeakMap<object, ReadonlyMap<string, RegisteredTool>>();

/** A tool's `nestedTools` as registry-style entries by name, cached per tool. */
function nestedEntriesOf(parent: RegisteredTool | undefined): ReadonlyMap<string, RegisteredTool> | undefined {
  const tools = parent?.tool.nestedTools;
  if (parent === undefined || tools === undefined || tools.length === 0) return undefined;
  let entries = nestedEntries.get(parent.tool);
  if (entries === undefined) {
    entries = new Map(
      tools.map((tool) => [
        tool.name,
        {
          name: tool.name,
          tool: completeTool(tool),
          external: false,
          schema: { name: tool.name, description: tool.description, parameters: modelFacingParameters(tool) },
        },
      ]),
    );
    nestedEntries.set(parent.tool, entries);
  }
  return entries;
}

/** What a nested lookup found: the harness's entry to call, or a refusal (the harness hides the tool). */
type NestedLookup = RegisteredTool | 'hidden' | undefined;

/**
 * The tool a nested call of `name` reaches, with the gates the harness applies to the model's
 * calls. The harness's own tools first: this turn's offered ones (toolsets included, so
 * `ApprovalRequiredToolSet`, renames and per-turn selection hold) and the deferred catalogue; a
 * registered tool not offered this turn is `hidden` (middleware or the allow-list withheld it)
 * unless its exposure is `hidden` (host-only tools, callable from code). Then the calling tool's own
 * `nestedTools`, matched by provenance (`toolOrigin`): when the harness offers the same tool under
 * any name (prefixed, renamed, approval-wrapped), the call goes to that entry and its gates; when
 * the harness withheld it (a `FilteredToolSet`, a middleware filter) it is `hidden`; only a tool the
 * harness does not know at all runs as the calling tool's own (callable only from that program).
 * Discovery bridge names are not tools.
 */
function harnessEntry(state: LoopState, name: string, own: RegisteredTool | undefined): NestedLookup {
  if (state.discovery?.bridgeNames.includes(name)) return state.registry.get(name);
  const offered = state.offered.get(name) ?? state.deferredTools.get(name);
  if (own === undefined) {
    if (offered !== undefined) return offered;
    const registered = state.registry.get(name);
    if (registered === undefined) return undefined;
    return registered.tool.exposure === 'hidden' ? registered : 'hidden';
  }
  const origin = toolOrigin(own.tool);
  const candidates = [...state.offered.values(), ...state.deferredTools.values()].filter(
    (entry) => toolOrigin(entry.tool) === origin && !state.discovery?.bridgeNames.includes(entry.name),
  );
  if (candidates.length > 0) return candidates.find((entry) => entry.name === name) ?? candidates[0];
  // Another tool of the harness under this name: the harness's version, never an ungated copy.
  if (offered !== undefined) return offered;
  if (isWithheld(state.context, own.tool)) return 'hidden';
  const registered = state.registry.get(name);
  if (registered !== undefined) return registered.tool.exposure === 'hidden' ? registered : 'hidden';
  return own;
}

/**
 * A nested call id, `<parent>/<n>`, new in the run: provider ids never hold a `/` (they are re-keyed
 * when they do), and an id the run already used (a transcript the host passed in) is skipped, so a
 * nested call never shares an id, an approval or a ledger row with any other call. @internal
 */
export function mintNestedId(state: LoopState, parentId: string): string {
  let n = state.nestedCalls.get(parentId) ?? 0;
  let callId: string;
  do {
    n += 1;
    callId = `${parentId}/${n}`;
  } while (state.seenCallIds.has(callId));
  state.nestedCalls.set(parentId, n);
  state.seenCallIds.add(callId);
  return callId;
}

/** Why a nested call cannot pause: a program calling it would stop half-way. */
const cannotPause = (name: string, callId: string, why: string) =>
  new ToolExecutionError({
    toolName: name,
    callId,
    cause: new Error(`nested call deferred: ${why}; a nested call cannot pause the run`),
  });

/**
 * Runs tool calls made from inside another tool (`context.callTool`), through the same admission
 * as a model's call, in order: cancellation and deadline → name lookup (the tools the
 * harness knows, with their gates: offered this turn, deferred, registered; then the calling tool's
 * `nestedTools` for names the harness does not know; external tools are unknown) → the host allow-list →
 * one tool-call budget slot → `beforeTool` hooks (a hook's answer is the call's result; a deferral
 * or approval request cannot pause a nested call and is refused) → approval-requiring tools are
 * refused unless the call id was approved → injected arguments → validation against the declared
 * schema (ajv, then a Standard Schema's own `validate`) → execution with the ledger, `wrapTool`
 * middleware and `tool_started`/`tool_completed`/`tool_failed` events carrying `parentCallId`.
 * The id is `<parent>/<n>`. Refusals are thrown to the calling tool (typed errors) rather than
 * answered to the model.
 * @internal
 */
export function createNestedCallRunner(state: LoopState): NestedCallRunner {
  const runner: NestedCallRunner = async (parentId, depth, name, args, parent, signal, parentSignal) => {
    try {
      return await runNested(state, runner, parentId, depth, name, args, parent, signal);
    } finally {
      // However it ended (refused, failed, returned), the calling call no longer aborts it.
      parentSignal.unlink(signal);
      signal.detach();
    }
  };
  return runner;
}

/**
 * Throws when a nested call may not go on: the run ended (`NestedCallRefusedError`, `run_ended`),
 * was cancelled or ran out of time (the run stop), or the calling call ended or was aborted
 * (`NestedCallRefusedError`, `parent_ended`; `signal` is linked to the calling call's). Checked when
 * the call is made and again after each asynchronous admission step, so a call whose admission
 * finishes late never runs and reports no event.
 */
function checkNestedAlive(state: LoopState, parentId: string, name: string, signal: LazyCallSignal): void {
  // A run that stopped reports its stop; one that ended is not checked for its deadline again.
  if (!state.sink.ended) checkRunAlive(state);
  else if (state.signal.aborted) throw runStopError(state);
  if (signal.aborted)
    throw new NestedCallRefusedError({
      toolName: name,
      parentCallId: parentId,
      refusal: signal.refusal,
      cause: signal.abortReason,
    });
  if (state.sink.ended)
    throw new NestedCallRefusedError({ toolName: name, parentCallId: parentId, refusal: 'run_ended' });
}

async function runNested(
  state: LoopState,
  runner: NestedCallRunner,
  parentId: string,
  depth: number,
  name: string,
  args: unknown,
  parent: RegisteredTool | undefined,
  signal: LazyCallSignal,
): Promise<ToolResult> {
  {
    checkNestedAlive(state, parentId, name, signal);
    const own = nestedEntriesOf(parent);
    const allowed = allowedToolNames(state.context);
    const lookup = (toolName: string): RegisteredTool | undefined => {
      const entry = harnessEntry(state, toolName, own?.get(toolName));
      if (entry === undefined || entry === 'hidden' || entry.external) return undefined;
      if (allowed !== undefined && !allowed.has(entry.name)) return undefined;
      return entry;
    };
    const available = () =>
      [
        ...new Set([
          ...(own?.keys() ?? []),
          ...state.offered.keys(),
          ...state.deferredTools.keys(),
          ...state.registry.names(),
        ]),
      ]
        .filter((toolName) => lookup(toolName) !== undefined)
        .sort();
    let entry = lookup(name);
    if (entry === undefined) throw new ToolNotFoundError({ toolName: name, availableTools: available() });
    // The admission of a model's call: a plain-JSON copy within the depth limit, before anything reads it.
    const snapshot = snapshotArguments(args);
    if (!snapshot.ok)
      throw new ToolInputError({
        toolName: name,
        issues: [{ path: '', keyword: snapshot.keyword, message: snapshot.message }],
      });
    // A call from a tool at the depth limit (the model's calls are depth 0) is refused before it is
    // admitted: each level is admitted on the stack of the one above, so an unbounded chain (a
    // recursive tool, a program calling itself) would overflow the stack instead.
    const maxDepth = state.limits.maxToolDepth;
    if (depth + 1 > maxDepth) {
      if (state.sink.active) state.sink.emit({ type: 'limit_reached', limitKind: 'tool_depth', limit: maxDepth });
      throw new LimitExceededError({ limitKind: 'tool_depth', limit: maxDepth, messages: state.history });
    }
    const limit = state.limits.maxToolCalls;
    if (state.toolCalls >= limit) {
      if (state.sink.active) state.sink.emit({ type: 'limit_reached', limitKind: 'tool_calls', limit });
      throw new LimitExceededError({ limitKind: 'tool_calls', limit, messages: state.history });
    }
    state.toolCalls += 1;
    const callId = mintNestedId(state, parentId);
    // Under the name the harness gates it by (a program's `pay` may be the harness's `bank_pay`).
    let call: PendingCall = { id: callId, name: entry.name, arguments: snapshot.value };
    if (state.middleware.length > 0) {
      const context = {
        ...middlewareContext(state, state.turn),
        lookupTool: (toolName: string) => lookup(toolName),
        // Approval middleware asks about the nested id: only an approval bound to it counts (never a bare id).
        isCallApproved: (id: string) => isApprovedCall(state, id, state.approvedTools.get(id) ?? '', { nested: true }),
      };
      let hooked: Awaited<ReturnType<typeof runBeforeTool>>;
      try {
        // Checked between hooks too: a hook that awaited past the caller's end holds back the later ones.
        const checkAlive = () => checkNestedAlive(state, parentId, name, signal);
        hooked = await runBeforeTool(state, call, context, checkAlive);
        checkAlive();
      } catch (error) {
        state.toolCalls -= 1;
        if (ApprovalRequiredError.isInstance(error) || CallDeferredError.isInstance(error)) {
          throw cannotPause(name, callId, error.reason);
        }
        throw error;
      }
      if ('respond' in hooked) return hooked.respond;
      const rewritten = snapshotArguments(hooked.arguments);
      if (!rewritten.ok)
        throw new ToolInputError({
          toolName: hooked.name,
          issues: [{ path: '', keyword: rewritten.keyword, message: rewritten.message }],
        });
      call = { id: callId, name: hooked.name, arguments: rewritten.value };
      if (call.name !== entry.name) {
        entry = lookup(call.name);
        if (entry === undefined) throw new ToolNotFoundError({ toolName: call.name, availableTools: available() });
      }
    }
    const target = entry;
    if (target.tool.policy.access.approvalRequired && !isApprovedCall(state, callId, target.name, { nested: true })) {
      state.toolCalls -= 1;
      throw cannotPause(target.name, callId, 'approval_required');
    }
    const prepared = prepareToolArguments(
      { id: callId, arguments: call.arguments },
      target.tool.injected,
      state.context.hostValues ?? {},
      target.name,
    );
    const validated = validateToolArguments(target.tool, prepared, { signal: state.signal });
    let checked: Awaited<typeof validated>;
    if (validated instanceof Promise) {
      checked = await validated;
      try {
        checkNestedAlive(state, parentId, target.name, signal);
      } catch (error) {
        state.toolCalls -= 1;
        throw error;
      }
    } else checked = validated;
    if (!checked.ok) throw new ToolInputError({ toolName: target.name, issues: checked.issues });
    const redaction = redactionOf(target.tool);
    // The calling tools' own secrets (a parent passing its key on) are kept out of this call's events and result too.
    const inherited = lineageSecrets(state, parentId);
    const secrets = [...eventSecrets(call.arguments, redaction, state.policy.captureToolIo), ...inherited];
    if (state.sink.active) {
      state.sink.emit({
        type: 'tool_started',
        callId,
        toolName: target.name,
        parentCallId: parentId,
        // The harness's own copy: the tool may edit the arguments it is given.
        ...(state.policy.captureToolIo
          ? { input: scrubValue(redactValue(sealArguments(call.arguments), redaction), inherited) }
          : {}),
      });
      state.sink.opened(callId, target.name, parentId);
    }
    let outcome: CallOutcome;
    try {
      outcome = await executeCall(
        state,
        { id: callId, name: target.name, arguments: call.arguments },
        target,
        checked.value,
        depth + 1,
        runner,
        signal,
      );
    } catch (error) {
      // What runs around the tool threw (its `timeoutPolicy`, a key function): the call failed.
      outcome = { kind: 'fatal', error, startedAt: Date.now(), durationMs: 0 };
    }
    // Its outcome event follows now; if the run ended first, the final event already closed it.
    if (state.sink.active) state.sink.settled(callId);
    if (outcome.kind === 'result') {
      // What the calling tool (a code-mode program) receives is scrubbed before it can transform it.
      const result = inherited.length === 0 ? outcome.result : scrubResult(outcome.result, inherited);
      if (state.sink.active) {
        const output = scrubText(result.output(), secrets);
        state.sink.emit({
          type: 'tool_completed',
          callId,
          toolName: target.name,
          parentCallId: parentId,
          startedAtMs: outcome.startedAt,
          durationMs: outcome.durationMs,
          outputBytes: Buffer.byteLength(output),
          ...(state.policy.captureToolIo ? { output } : {}),
          ...(result.isError ? { error: output } : {}),
          ...(result.metadata === undefined ? {} : { metadata: recordedValue(result.metadata) }),
        });
      }
      state.executedTools.push(target.name);
      return result;
    }
    const error = outcome.kind === 'fatal' ? outcome.error : cannotPause(target.name, callId, outcome.reason);
    if (state.sink.active) {
      state.sink.emit({
        type: 'tool_failed',
        callId,
        toolName: target.name,
        parentCallId: parentId,
        startedAtMs: outcome.startedAt,
        durationMs: outcome.durationMs,
        error: scrubText(describeSafely(error), secrets),
      });
    }
    const hidden = sensitiveValues(call.arguments, redaction);
    if (hidden.length > 0 && error instanceof Error) error.message = scrubText(error.message, hidden);
    // The calling tool (a program) gets the error scrubbed of its callers' secrets; run stops pass as they are.
    throw inherited.length === 0 || isRunStop(error) ? error : scrubThrown(error, inherited);
  }
}
