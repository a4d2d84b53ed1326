import { recoverToolArguments } from '@tiny/llm';
import {
  ApprovalRequiredError,
  CallDeferredError,
  formatValidationIssues,
  prepareToolArguments,
  resolveToolTimeout,
  ToolInputError,
  ToolNotFoundError,
  ToolResult,
  ToolTimeoutError,
  type ValidateSchemaValueOptions,
  type ValidationIssue,
  validateToolArguments,
} from '@tiny/tools';
import type { LoopState, PendingCall } from '../agent/loop-state.js';
import { isApprovedCall } from '../deferral/approved-call.js';
import { pauseReason } from '../deferral/pause-reason.js';
import { unwrapBridgeCall } from '../discovery/unwrap-bridge-call.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import type { BrokenTurnReason } from '../events/agent-event.js';
import {
  eventSecrets,
  redactionOf,
  redactLooseArguments,
  redactUnknownArguments,
  scrubText,
} from '../execution/redaction.js';
import { middlewareContext, runBeforeTool } from '../middleware/middleware-runner.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { runStopError } from '../run/run-stop.js';
import type { Admission } from './admission.js';
import { MAX_ARGUMENT_DEPTH, normalizeArguments } from './normalize-arguments.js';
import { sealArguments } from './seal-arguments.js';
import { snapshotArguments } from './snapshot-arguments.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Throws when an `onEvent` listener failed (`ListenerError`), the run was cancelled
 * (`RunCancelledError`) or ran out of wall-clock time (`LimitExceededError`, after `limit_reached`). @internal
 */
export function checkRunAlive(state: LoopState): void {
  state.sink.throwIfFailed();
  if (state.deadline !== undefined && !state.signal.aborted && Date.now() >= state.deadline.at) state.deadline.expire();
  if (state.signal.aborted) throw runStopError(state);
}

/**
 * Admits a call the model made. A discovery `tool_call` is unwrapped first, so hooks, allow-lists
 * and policies see the real tool (a malformed one is answered with a tool error and spends its
 * budget slot); everything else goes straight to {@link admitCall}. Like `admitCall`, it settles
 * synchronously when nothing on the way is asynchronous, and may throw instead of rejecting.
 * @internal
 */
export function admitModelCall(state: LoopState, call: PendingCall): Admission | Promise<Admission> {
  const discovery = state.discovery;
  if (discovery === undefined || !discovery.isBridgeCall(call.name) || call.invalid !== undefined)
    return admitCall(state, call);
  const unwrapped = unwrapBridgeCall(call);
  if (unwrapped.kind === 'not_bridge') return admitCall(state, call);
  if (unwrapped.kind === 'invalid') {
    checkRunAlive(state);
    reserveSlot(state);
    return { kind: 'answer', call, toolName: call.name, result: ToolResult.error(unwrapped.message) };
  }
  return admitCall(state, { ...unwrapped.call, id: call.id }, 'tool_call');
}

const BROKEN_TURN_WHY: Record<BrokenTurnReason, string> = {
  length: 'your reply was cut off at the output token limit, so its arguments may be incomplete',
  content_filter: "the provider's content filter withheld or cut your reply",
  error: 'the provider reported an error (or no reason) for ending your reply',
};

/**
 * The broken-turn reason of a finish reason, else undefined. An allow-list: only `stop`,
 * `tool_calls` and `other` are normal ends; `length` and `content_filter` are themselves, and
 * anything else (`error`, a reason outside the spec such as `max_tokens` or `LENGTH`, `undefined` or
 * `null` from a custom model) is `error`, so its calls never run. @internal
 */
export function brokenTurnReason(finishReason: unknown): BrokenTurnReason | undefined {
  if (finishReason === 'stop' || finishReason === 'tool_calls' || finishReason === 'other') return undefined;
  return finishReason === 'length' || finishReason === 'content_filter' ? finishReason : 'error';
}

/**
 * Answers a call from a broken model turn without running it: a tool error that says why (so the
 * model can make the call again), a `tool_call_refused` event, and one budget slot spent.
 * @internal
 */
export function refuseBrokenCall(
  state: LoopState,
  call: PendingCall,
  reason: BrokenTurnReason,
  modelCallId: string,
): Admission {
  checkRunAlive(state);
  reserveSlot(state);
  if (state.sink.active)
    state.sink.emit({ type: 'tool_call_refused', modelCallId, callId: call.id, toolName: call.name, reason });
  const message = `tool \`${call.name}\` was not run: ${BROKEN_TURN_WHY[reason]} (finish reason \`${reason}\`); make the call again in a complete reply`;
  return { kind: 'answer', call, toolName: call.name, result: ToolResult.error(message) };
}

/**
 * The model's arguments as an event records them: absent unless `policy.captureToolIo`, and then
 * with the tool's sensitive fields replaced by `[redacted]`.
 */
function recordedArguments(
  state: LoopState,
  args: unknown,
  entry: RegisteredTool | undefined,
): { arguments?: unknown } {
  if (!state.policy.captureToolIo) return {};
  if (entry === undefined) {
    const registered = state.registry.names().map((name) => state.registry.get(name));
    const known = [...state.offered.values(), ...state.deferredTools.values(), ...registered].filter(
      (item): item is RegisteredTool => item !== undefined,
    );
    return { arguments: redactUnknownArguments(args, known, state.context.hostValues) };
  }
  const redaction = redactionOf(entry.tool);
  // These arguments did not validate: looked at fail-closed (see `redactLooseArguments`).
  return { arguments: redaction === undefined ? args : redactLooseArguments(args, [redaction], []) };
}

/** Takes one tool-call budget slot, or ends the run with `limit_reached`. */
function reserveSlot(state: LoopState): void {
  const limit = state.limits.maxToolCalls;
  if (state.toolCalls >= limit) {
    if (state.sink.active) state.sink.emit({ type: 'limit_reached', limitKind: 'tool_calls', limit });
    throw new LimitExceededError({ limitKind: 'tool_calls', limit, messages: state.history });
  }
  state.toolCalls += 1;
}

/**
 * Admits one provider call, in order: cancellation → deadline → tool-call budget → a call the
 * adapter refused (`refused`, or listed as refused in the loop's call formats after a resume) is
 * answered with a tool error, before any hook and whatever its arguments hold → `beforeTool`
 * hooks (a refusal releases the slot and propagates) → unparseable arguments (relaxed repair, else a
 * tool error; never `{}`); a hook may also answer the call or defer it → name lookup against this turn's offered tools (unknown-tool policy) →
 * injected arguments → validation against the **declared** schema (invalid-args policy) →
 * approval / external deferral. Emits no `tool_started`: that waits until the whole batch is admitted.
 *
 * The admission comes back as is when no step is asynchronous (no `beforeTool` hook, synchronous
 * validation): most calls, and a promise per call is a measurable share of the loop's cost. It
 * throws (rather than rejects) what it refuses before any asynchronous step.
 * @internal
 */
export function admitCall(
  state: LoopState,
  original: PendingCall,
  via: 'name' | 'tool_call' = 'name',
): Admission | Promise<Admission> {
  checkRunAlive(state);
  reserveSlot(state);
  if (isRefused(state, original)) return refusedCall(state, original);
  // A plain-JSON copy first: nothing after this reads a getter, proxy or `toJSON` of the model's value.
  const snapshot = snapshotArguments(original.arguments);
  if (!snapshot.ok) return refusedArguments(state, original, snapshot);
  const copied = snapshot.value === original.arguments ? original : { ...original, arguments: snapshot.value };
  const call = rewriteUnknownName(state, copied);
  if (state.middleware.length > 0) return admitHooked(state, call, via);
  return admitUnhooked(state, call, via, true);
}

/** True when the adapter refused the call: marked on it, or recorded for its id (which survives a resume). */
function isRefused(state: LoopState, call: PendingCall): boolean {
  return call.refused === true || state.callFormats.get(call.id)?.refused === true;
}

/**
 * The answer to a call the adapter refused (`ToolCall.refused` of `@tiny/llm`: two calls under one
 * id, a spliced or cut-off stream): a tool error saying why, and an `invalid_tool_args` event with
 * `recovery: 'tool_error'`. Its arguments are never repaired, validated or run, however readable.
 */
function refusedCall(state: LoopState, call: PendingCall): Admission {
  const why = typeof call.invalid === 'string' && call.invalid !== '' ? call.invalid : 'the provider refused the call';
  const entry = state.offered.get(call.name);
  const secrets = eventSecrets(call.arguments, redactionOf(entry?.tool), state.policy.captureToolIo);
  if (state.sink.active) {
    state.sink.emit({
      type: 'invalid_tool_args',
      callId: call.id,
      toolName: call.name,
      ...recordedArguments(state, call.arguments, entry),
      error: scrubText(why, secrets),
      recovery: 'tool_error',
    });
  }
  const message = `tool \`${call.name}\` was not run: the provider's reply could not be trusted (${scrubText(why, secrets)}); make the call again`;
  return { kind: 'answer', call, toolName: call.name, result: ToolResult.error(message) };
}

/**
 * The answer to arguments that are not plain JSON or nest deeper than {@link MAX_ARGUMENT_DEPTH}
 * (see `snapshotArguments`), given before anything walks them (validation, redaction, canonical
 * JSON): the invalid-arguments answer, or a `ToolInputError` under `invalidArgs: 'fail'`. The answer
 * carries no arguments, so nothing later (event secrets, the ledger) walks them either.
 */
function refusedArguments(
  state: LoopState,
  call: PendingCall,
  refusal: { readonly keyword: string; readonly message: string },
): Admission {
  const issues = [{ path: '', keyword: refusal.keyword, message: refusal.message }];
  if (state.policy.invalidArgs === 'fail') throw new ToolInputError({ toolName: call.name, issues });
  const detail = formatValidationIssues(issues);
  if (state.sink.active) {
    state.sink.emit({
      type: 'invalid_tool_args',
      callId: call.id,
      toolName: call.name,
      error: detail,
      recovery: 'tool_error',
    });
  }
  const again = refusal.keyword === 'maxDepth' ? 'less deeply nested' : 'as one JSON object';
  const message = `invalid arguments for tool \`${call.name}\`: ${detail}; send them again, ${again}`;
  return {
    kind: 'answer',
    call: { id: call.id, name: call.name, arguments: {} },
    toolName: call.name,
    result: ToolResult.error(message),
  };
}

/**
 * Under `unknownTool: { kind: 'rewrite' }`, a call to a name the harness does not offer is renamed
 * to the rewrite target (with its `unknown_tool_call` event) before any hook or gate sees it, so
 * name-based gates judge, and an approval request names, the tool that will run.
 */
function rewriteUnknownName(state: LoopState, call: PendingCall): PendingCall {
  const policy = state.policy.unknownTool;
  if (policy.kind !== 'rewrite' || state.offered.has(call.name) || state.deferredTools.has(call.name)) return call;
  const target = state.offered.get(policy.toolName);
  if (target === undefined) return call;
  if (state.sink.active) {
    state.sink.emit({
      type: 'unknown_tool_call',
      callId: call.id,
      requestedName: call.name,
      ...recordedArguments(state, call.arguments, undefined),
      recovery: `rewrite:${target.name}`,
    });
  }
  return { ...call, name: target.name };
}

/** {@link admitCall} with `beforeTool` hooks: they may refuse, answer, defer or rewrite the call. */
async function admitHooked(state: LoopState, call: PendingCall, via: 'name' | 'tool_call'): Promise<Admission> {
  let hooked: Awaited<ReturnType<typeof runBeforeTool>>;
  try {
    hooked = await runBeforeTool(state, call, middlewareContext(state, state.turn));
  } catch (error) {
    state.toolCalls -= 1;
    if (ApprovalRequiredError.isInstance(error) || CallDeferredError.isInstance(error)) {
      const approval = ApprovalRequiredError.isInstance(error);
      const reason = pauseReason(error.reason);
      return { kind: 'defer', call, toolName: call.name, approval, reason, metadata: error.metadata };
    }
    throw error;
  }
  if ('respond' in hooked) return { kind: 'answer', call, toolName: call.name, result: hooked.respond };
  return admitUnhooked(state, hooked, via);
}

/**
 * The steps of {@link admitCall} after the hooks: repair, lookup, arguments. `snapshotted`: the
 * arguments of `original` are already the harness's own plain-JSON copy (no hook ran), so unless
 * repair replaces them they are not copied again.
 */
function admitUnhooked(
  state: LoopState,
  original: PendingCall,
  via: 'name' | 'tool_call',
  snapshotted = false,
): Admission | Promise<Admission> {
  let call = original;
  // A hook may not turn a refused call into a runnable one (nor may one it marks refused run).
  if (isRefused(state, call)) return refusedCall(state, call);
  if (call.invalid !== undefined) {
    const raw = typeof call.arguments === 'string' ? call.arguments : '';
    // A call whose block was cut off before it closed may be missing anything after the cut: it is
    // answered with an error, never repaired into a runnable call.
    const cutOff = state.callFormats.get(call.id)?.partial === true;
    const repaired = cutOff ? undefined : recoverToolArguments(raw);
    if (repaired === undefined) {
      // A call written in a tool's own format (`xml`, `ptype`) is asked for again in that syntax.
      const written = state.callFormats.get(call.id)?.format;
      const again =
        written === 'xml' || written === 'ptype'
          ? `write the call again in the tool's ${written} syntax`
          : 'send them again as one JSON object';
      const message = cutOff
        ? `the call of tool \`${call.name}\` was cut off before it closed (${call.invalid}); write the whole call again`
        : `could not parse the arguments of tool \`${call.name}\` (${call.invalid}); ${again}`;
      if (state.sink.active) {
        state.sink.emit({
          type: 'invalid_tool_args',
          callId: call.id,
          toolName: call.name,
          ...recordedArguments(state, call.arguments, state.offered.get(call.name)),
          error: scrubText(
            call.invalid,
            eventSecrets(call.arguments, redactionOf(state.offered.get(call.name)?.tool), state.policy.captureToolIo),
          ),
          recovery: 'tool_error',
        });
      }
      return { kind: 'answer', call, toolName: call.name, result: ToolResult.error(message) };
    }
    if (state.sink.active) {
      state.sink.emit({
        type: 'invalid_tool_args',
        callId: call.id,
        toolName: call.name,
        ...recordedArguments(state, call.arguments, state.offered.get(call.name)),
        error: scrubText(
          call.invalid,
          eventSecrets(call.arguments, redactionOf(state.offered.get(call.name)?.tool), state.policy.captureToolIo),
        ),
        recovery: 'repaired',
      });
    }
    call = { id: call.id, name: call.name, arguments: repaired };
  }
  // Again after hooks and repair, which may have replaced the arguments.
  if (!snapshotted || call !== original) {
    const snapshot = snapshotArguments(call.arguments);
    if (!snapshot.ok) return refusedArguments(state, call, snapshot);
    call = snapshot.value === call.arguments ? call : { ...call, arguments: snapshot.value };
  }

  let entry = state.offered.get(call.name);
  if (entry === undefined && state.deferredTools.has(call.name)) {
    entry = state.deferredTools.get(call.name);
    if (state.sink.active) state.sink.emit({ type: 'deferred_tool_call', callId: call.id, toolName: call.name, via });
  }
  if (entry === undefined) {
    const unknown = resolveUnknown(state, call);
    if (unknown.kind === 'answer') return unknown;
    entry = unknown.entry;
  }
  return admitArguments(state, call, entry);
}

function resolveUnknown(
  state: LoopState,
  call: PendingCall,
): Extract<Admission, { kind: 'answer' }> | { readonly kind: 'rewrite'; readonly entry: RegisteredTool } {
  const policy = state.policy.unknownTool;
  const available = [...state.offered.keys()];
  if (policy.kind === 'fail') {
    throw new ToolNotFoundError({ toolName: call.name, availableTools: available });
  }
  if (policy.kind === 'rewrite') {
    const target = state.offered.get(policy.toolName);
    if (target !== undefined) {
      if (state.sink.active) {
        state.sink.emit({
          type: 'unknown_tool_call',
          callId: call.id,
          requestedName: call.name,
          ...recordedArguments(state, call.arguments, undefined),
          recovery: `rewrite:${target.name}`,
        });
      }
      return { kind: 'rewrite', entry: target };
    }
  }
  if (state.sink.active) {
    state.sink.emit({
      type: 'unknown_tool_call',
      callId: call.id,
      requestedName: call.name,
      ...recordedArguments(state, call.arguments, undefined),
      recovery: 'tool_error',
    });
  }
  const message = `unknown tool \`${call.name}\` (arguments: ${safeJson(call.arguments)}); valid tools: [${available.join(', ')}]`;
  return { kind: 'answer', call, toolName: call.name, result: ToolResult.error(message) };
}

/**
 * Validates the call's arguments and settles the admission; synchronous unless validation is (a
 * Standard Schema tool's asynchronous `validate`). A validation timeout is answered with a tool error.
 */
function admitArguments(state: LoopState, call: PendingCall, entry: RegisteredTool): Admission | Promise<Admission> {
  const checked = validating(state, call, entry, call.arguments);
  if (checked instanceof Promise) return checked.then((settled) => afterValidation(state, call, entry, settled));
  return afterValidation(state, call, entry, checked);
}

/** The admission once the model's arguments were checked: normalised and checked again when the policy says so. */
function afterValidation(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  checked: Checked | Admission,
): Admission | Promise<Admission> {
  if ('kind' in checked) return checked;
  if (checked.ok || state.policy.invalidArgs !== 'normalize_then_return_tool_error')
    return concludeAdmission(state, call, entry, checked, call.arguments);
  const normalized = normalizeArguments(call.arguments, entry.schema.parameters);
  if (normalized === undefined) return concludeAdmission(state, call, entry, checked, call.arguments);
  const again = validating(state, call, entry, normalized);
  if (again instanceof Promise)
    return again.then((settled) => afterNormalized(state, call, entry, checked, normalized, settled));
  return afterNormalized(state, call, entry, checked, normalized, again);
}

function afterNormalized(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  checked: Extract<Checked, { ok: false }>,
  normalized: unknown,
  again: Checked | Admission,
): Admission {
  if ('kind' in again) return again;
  if (again.ok && state.sink.active) {
    state.sink.emit({
      type: 'invalid_tool_args',
      callId: call.id,
      toolName: entry.name,
      ...recordedArguments(state, call.arguments, entry),
      error: scrubText(
        formatValidationIssues(checked.issues),
        eventSecrets(call.arguments, redactionOf(entry.tool), state.policy.captureToolIo),
      ),
      recovery: 'normalized',
    });
  }
  return concludeAdmission(state, call, entry, again, normalized);
}

/**
 * {@link prepareAndValidate} on `args`, without a promise when validation is synchronous; a
 * `ToolTimeoutError` from validation becomes a tool-error answer (an {@link Admission}).
 * Module-level steps rather than closures made per call (see bench/README.md, issue 35).
 */
function validating(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: unknown,
): Checked | Admission | Promise<Checked | Admission> {
  let checked: Checked | Promise<Checked>;
  try {
    checked = prepareAndValidate(state, call, entry, args);
  } catch (error) {
    return timedOut(call, entry, error);
  }
  return checked instanceof Promise ? checked.catch((error: unknown) => timedOut(call, entry, error)) : checked;
}

/** A validation that timed out, as its tool-error answer; anything else thrown propagates. */
function timedOut(call: PendingCall, entry: RegisteredTool, error: unknown): Admission {
  if (!ToolTimeoutError.isInstance(error)) throw error;
  return { kind: 'answer', call, toolName: entry.name, result: ToolResult.error(error.message) };
}

/** The admission for validated (or finally invalid) arguments: an answer, a deferral, or the call to execute. */
function concludeAdmission(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  checked: Checked,
  input: unknown,
): Admission {
  if (!checked.ok) {
    if (state.policy.invalidArgs === 'fail') throw new ToolInputError({ toolName: entry.name, issues: checked.issues });
    const detail = formatValidationIssues(checked.issues);
    if (state.sink.active) {
      state.sink.emit({
        type: 'invalid_tool_args',
        callId: call.id,
        toolName: entry.name,
        ...recordedArguments(state, call.arguments, entry),
        error: scrubText(detail, eventSecrets(call.arguments, redactionOf(entry.tool), state.policy.captureToolIo)),
        recovery: 'tool_error',
      });
    }
    const message = `invalid arguments for tool \`${entry.name}\`: ${detail}; expected schema: ${JSON.stringify(entry.schema.parameters)}`;
    return { kind: 'answer', call, toolName: entry.name, result: ToolResult.error(message) };
  }
  const admitted = call.name === entry.name ? call : { ...call, name: entry.name };
  if (entry.external) {
    state.toolCalls -= 1;
    return { kind: 'defer', call: admitted, toolName: entry.name, approval: false, reason: 'external' };
  }
  if (entry.tool.policy.access.approvalRequired && !isApprovedCall(state, call.id, entry.name)) {
    state.toolCalls -= 1;
    return { kind: 'defer', call: admitted, toolName: entry.name, approval: true, reason: 'approval_required' };
  }
  // The tool gets `checked.value` (which may be, or share objects with, the admitted arguments) and
  // may edit it, now or after a pause: what the run records of the call is its own frozen copy, taken
  // before the tool runs (a deferral's pending call, its approval digest, the captured input).
  const recorded = sealArguments(call.arguments);
  return {
    kind: 'execute',
    call: { id: call.id, name: entry.name, arguments: recorded },
    entry,
    args: checked.value,
    input: input === call.arguments ? recorded : sealArguments(input),
  };
}

/** The outcome of {@link prepareAndValidate}. @internal */
export type Checked = { ok: true; value: Record<string, unknown> } | { ok: false; issues: readonly ValidationIssue[] };

/**
 * Strips model values under injected names, inserts the host's, and validates against the declared
 * schema: ajv first (the fail-closed gate), then a Standard Schema tool's own `validate` (awaited
 * under the tool's timeout when async; its output is what `execute` receives). Issues under
 * injected names are the host's fault (the model cannot fix them) and fail the run instead of
 * being shown to the model.
 * @internal
 */
export function prepareAndValidate(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: unknown,
): Checked | Promise<Checked> {
  const injected = entry.tool.injected;
  const prepared = isObject(args)
    ? prepareToolArguments({ id: call.id, arguments: args }, injected, state.context.hostValues ?? {}, entry.name)
    : args;
  // The options only serve a Standard Schema library's asynchronous `validate`: a JSON Schema tool
  // (no library) is validated synchronously by ajv alone, without the closures built for it.
  const outcome =
    entry.tool.standardSchemas?.parameters === undefined
      ? validateToolArguments(entry.tool, prepared)
      : validateToolArguments(entry.tool, prepared, libraryOptions(state, entry, prepared));
  if (outcome instanceof Promise) return outcome.then((result) => checkedOf(entry, result));
  return checkedOf(entry, outcome);
}

/** How an asynchronous library `validate` is awaited: under the tool's timeout and the run's signal. */
function libraryOptions(state: LoopState, entry: RegisteredTool, prepared: unknown): ValidateSchemaValueOptions {
  let budgetMs = 0;
  return {
    timeoutMs: () => {
      const timeout = resolveToolTimeout(entry.tool.timeoutPolicy(prepared as never), state.limits.toolTimeouts);
      budgetMs = timeout.budgetMs ?? 0;
      return timeout.deadlineMs;
    },
    signal: state.signal,
    onTimeout: () => new ToolTimeoutError({ toolName: entry.name, timeoutMs: budgetMs }),
  };
}

/** A validation result as {@link Checked}; issues under injected names are thrown as the host's fault. */
function checkedOf(entry: RegisteredTool, result: Awaited<ReturnType<typeof validateToolArguments>>): Checked {
  if (result.ok) return result;
  const hidden = entry.tool.injected.map((argument) => `/${argument.name}`);
  const hostFault = result.issues.filter((issue) =>
    hidden.some((path) => issue.path === path || issue.path.startsWith(`${path}/`)),
  );
  if (hostFault.length > 0) throw new ToolInputError({ toolName: entry.name, issues: hostFault });
  return { ok: false, issues: result.issues };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}
