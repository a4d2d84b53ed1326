import {
  ApprovalRequiredError,
  CallDeferredError,
  ModelRetry,
  prepareToolArguments,
  type ResolvedToolTimeout,
  resolveToolTimeout,
  type ToolExecutionContext,
  ToolFailedError,
  ToolInputError,
  type ToolOutput,
  ToolResult,
  ToolTimeoutError,
  validateToolArguments,
} from '@tiny/tools';
import type { LoopState, PendingCall } from '../agent/loop-state.js';
import { pauseReason } from '../deferral/pause-reason.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { idempotencyKeyOf, recordSettled, recordStarted } from '../ledger/record-effect.js';
import { markToolError, middlewareContext, wrapToolOnion } from '../middleware/middleware-runner.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { canStop, isRunStop, runStopError } from '../run/run-stop.js';
import { type CallDeadline, cancelDeadline, scheduleDeadline } from './call-deadlines.js';
import type { CallOutcome } from './call-outcome.js';
import { describeSafely } from './plain-data.js';
import { unwatchRunAbort, watchRunAbort } from './run-abort-watch.js';
import { enterCall, scrubOutcome } from './scrub-outcome.js';
import { unserializableReason, unserializableResult } from './serializable-result.js';
import { createCallContext, endCall, isCallEnded, LazyCallSignal, pauseCall, resumeCall } from './tool-context.js';
import { resultOfOutput } from './undefined-output.js';

export type { CallOutcome } from './call-outcome.js';

/**
 * Signature of the nested-call runner handed to tool contexts; `parent` is the calling tool (its
 * `nestedTools` are looked up first). @internal
 */
export type NestedCallRunner = (
  parentId: string,
  depth: number,
  name: string,
  args: unknown,
  parent: RegisteredTool | undefined,
  signal: LazyCallSignal,
  parentSignal: LazyCallSignal,
) => Promise<ToolResult>;

const isPromiseLike = (value: unknown): value is PromiseLike<ToolOutput> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * One asynchronous call waiting for its output, its deadline or the run's abort, whichever comes
 * first. A plain object read by module-level functions rather than closures made per call: a full
 * collection discards the optimised code of closures once they die (each request recompiles it),
 * and an object literal's shape outlives its objects (see bench/README.md, issue 35).
 *
 * Two kinds. A call's own wait (`context` set, see {@link settleOutput}) ends the call when the first
 * of them comes, and its promise settles with the call's outcome: no async function and no promise
 * in between per call. A wrapped call's `execute` run (see {@link settle}) settles its promise with
 * the output, or rejects it with what interrupted it, for the `wrapTool` layers to see.
 */
interface OutputWait {
  readonly state: LoopState;
  readonly signal: LazyCallSignal;
  readonly entry: RegisteredTool;
  readonly callId: string;
  /** The budget a timeout reports. */
  readonly budgetMs: number;
  deadline: CallDeadline | undefined;
  /** Whether the wait is registered with the run's abort (not for a run signal that can never fire). */
  readonly watching: boolean;
  /** The context of the call this wait ends (a call's own wait); undefined for a wrapped call's `execute` run. */
  readonly context: ToolExecutionContext | undefined;
  /** A call's own wait: the arguments, start time and whether the outcome passes the tool boundary here. */
  readonly args: Record<string, unknown>;
  readonly startedAt: number;
  readonly scrub: boolean;
  /** Whether the wait is over: the output, the deadline, the run's abort or the calling call's end came first. */
  ended: boolean;
  /** A call's own wait that a concurrent batch hears the outcome of directly (see {@link hearNextCall}); its promise is never made. */
  hearer: OutcomeHearer | undefined;
  hearTarget: unknown;
  hearIndex: number;
  /** Settles the wait's promise: with the call's outcome (a call's own wait) or the output (an `execute` run). */
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

const ignore = (): void => undefined;

/** The wait a `new Promise` is opened for: {@link takeResolvers}, its executor, stores the resolvers in it. */
let opening: OutputWait | undefined;

function takeResolvers(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  const wait = opening as OutputWait;
  wait.resolve = resolve;
  wait.reject = reject;
}

/**
 * Told a call's outcome by the call's wait: `outcome`, or `undefined` and the `error` that ended the
 * call outside the tool-error policy (what a rejection of the call's promise would have carried).
 * @internal
 */
export type OutcomeHearer = (target: never, index: number, outcome: CallOutcome | undefined, error: unknown) => void;

/** The hearer for the next top-level call that starts waiting (see {@link hearNextCall}). */
let nextHearer: OutcomeHearer | undefined;
let nextHearState: LoopState | undefined;
let nextHearTarget: unknown;
let nextHearIndex = 0;

/**
 * What {@link executeCall} returns instead of a promise when the call's wait took the hearer set by
 * {@link hearNextCall}: the hearer is told the outcome, and no promise is made for it. Never settles.
 * @internal
 */
export const HEARD: Promise<CallOutcome> = new Promise<CallOutcome>(() => undefined);

/**
 * Has the next top-level call of `state`'s run (depth 0, no ledger, not wrapped) that waits for an asynchronous
 * output tell `hearer` its outcome, with `target` and `index`, instead of settling a promise:
 * `executeCall` then returns {@link HEARD}. Set right before `executeCall` and cleared right after
 * it returns (`hearNextCall(undefined, …)`): a call that does not wait (synchronous, refused,
 * aborted at the start, under a ledger or a wrap) leaves it untaken. A concurrent batch's slots use
 * it: a promise, its resolvers, a reaction and two bound functions fewer per call.
 * @internal
 */
export function hearNextCall(
  hearer: OutcomeHearer | undefined,
  state: LoopState | undefined,
  target: unknown,
  index: number,
): void {
  nextHearer = hearer;
  nextHearState = state;
  nextHearTarget = target;
  nextHearIndex = index;
}

/** The wait is over: the deadline and the run's abort no longer concern it (both may run twice). */
function endWait(wait: OutputWait): void {
  wait.ended = true;
  if (wait.deadline !== undefined) cancelDeadline(wait.deadline);
  if (wait.watching) unwatchRunAbort(wait.state.signal, wait);
  if (wait.signal.nested) wait.signal.unwatch();
}

/**
 * The errors a nested call's wait gave up with because its calling call ended: such a call ends
 * `fatal` (the calling tool, if it still waits, gets the error), never through the tool-error policy.
 */
const abandoned = new WeakSet<object>();

/** A nested call's calling call ended (or aborted it) while it ran: its output is no longer awaited. */
function callAborted(wait: OutputWait): void {
  // The run's own stop aborted the calling call: this call reports the run stop, as its caller does.
  if (wait.state.signal.aborted) {
    runAborted(wait);
    return;
  }
  endWait(wait);
  const callId = wait.callId;
  const error = new NestedCallRefusedError({
    toolName: wait.entry.name,
    parentCallId: callId.slice(0, callId.lastIndexOf('/')),
    refusal: wait.signal.refusal,
    started: true,
    cause: wait.signal.abortReason,
  });
  abandoned.add(error);
  endWithError(wait, error);
}

function runAborted(wait: OutputWait): void {
  endWait(wait);
  wait.signal.abort(wait.state.signal.reason);
  endWithError(wait, runStopError(wait.state));
}

/** Call signals aborted by their own call's deadline (not by their calling call's end). */
const timedOut = new WeakSet<LazyCallSignal>();

function deadlineExpired(wait: OutputWait): void {
  endWait(wait);
  const error = new ToolTimeoutError({ toolName: wait.entry.name, timeoutMs: wait.budgetMs });
  timedOut.add(wait.signal);
  wait.signal.abort(error);
  endWithError(wait, error);
}

/** The wait ended with `error` (the output rejected, or something interrupted it): an `execute` run rejects with it, a call ends with it. */
function endWithError(wait: OutputWait, error: unknown): void {
  if (wait.context === undefined) wait.reject(error);
  else endWaitedCall(wait, thrown(wait.state, error, wait.startedAt));
}

/**
 * The output came first: an `execute` run resolves with it; a call ends, before its output is read
 * (see {@link runCall}), with the outcome of the output. Called bound to the wait (a bound function
 * per call rather than a closure: nothing per call to compile again after a full collection).
 */
function outputReturned(this: OutputWait, output: ToolOutput): void {
  if (this.ended) return;
  endWait(this);
  if (this.context === undefined) {
    (this.resolve as (output: ToolOutput) => void)(output);
    return;
  }
  let outcome: CallOutcome;
  try {
    endCall(this.context);
    outcome = returned(this.entry, resultOfOutput(this.state, this.entry, output), this.startedAt);
  } catch (error) {
    outcome = thrown(this.state, error, this.startedAt);
  }
  endWaitedCall(this, outcome);
}

/** The output rejected first (bound to the wait, as {@link outputReturned}). */
function outputThrew(this: OutputWait, error: unknown): void {
  if (this.ended) return;
  endWait(this);
  endWithError(this, error);
}

/** A call's own wait ended with `outcome`: the call's context ends, and the outcome (through the tool boundary with `scrub`) settles it. */
function endWaitedCall(wait: OutputWait, outcome: CallOutcome): void {
  const context = wait.context as ToolExecutionContext;
  endCall(context);
  let passed: CallOutcome;
  try {
    passed = wait.scrub
      ? scrubOutcome(wait.state, wait.callId, wait.entry, wait.args, context.depth, outcome)
      : outcome;
  } catch (error) {
    if (wait.hearer === undefined) wait.reject(error);
    else wait.hearer(wait.hearTarget as never, wait.hearIndex, undefined, error);
    return;
  }
  if (wait.hearer === undefined) (wait.resolve as (outcome: CallOutcome) => void)(passed);
  else wait.hearer(wait.hearTarget as never, wait.hearIndex, passed, undefined);
}

/**
 * Opens a wait (see {@link OutputWait}) for an asynchronous tool's output under its deadline and the
 * run's signal: the first to fire aborts the call's signal and ends the wait with `ToolTimeoutError`
 * / `RunCancelledError` (or `LimitExceededError` at the run deadline). Returns the wait's promise.
 */
function openWait(
  state: LoopState,
  pending: PromiseLike<ToolOutput>,
  signal: LazyCallSignal,
  entry: RegisteredTool,
  callId: string,
  timeout: ResolvedToolTimeout,
  context: ToolExecutionContext | undefined,
  args: Record<string, unknown>,
  startedAt: number,
  scrub: boolean,
): Promise<never> {
  const runSignal = state.signal;
  const deadlineMs = timeout.deadlineMs;
  const wait: OutputWait = {
    state,
    signal,
    entry,
    callId,
    budgetMs: timeout.budgetMs ?? deadlineMs ?? 0,
    deadline: undefined,
    // A run signal nothing can abort (no host signal, no run deadline) is not watched.
    watching: canStop(runSignal),
    context,
    args,
    startedAt,
    scrub,
    ended: false,
    resolve: ignore,
    reject: ignore,
    hearer: undefined,
    hearTarget: undefined,
    hearIndex: 0,
  };
  // The tool may have triggered the abort itself before handing back its promise: ended now, by its promise.
  if (runSignal.aborted || signal.aborted) {
    opening = wait;
    const settled = new Promise<never>(takeResolvers);
    opening = undefined;
    Promise.resolve(pending).catch(ignore);
    if (runSignal.aborted) runAborted(wait);
    else callAborted(wait);
    return settled;
  }
  // A top-level call's own wait takes the hearer set for it, if any (a nested call starts inside the
  // tool's `execute`, before this: its depth keeps it from taking its calling call's hearer).
  let settled: Promise<never>;
  if (nextHearer !== undefined && nextHearState === state && context !== undefined && context.depth === 0) {
    wait.hearer = nextHearer;
    wait.hearTarget = nextHearTarget;
    wait.hearIndex = nextHearIndex;
    nextHearer = undefined;
    nextHearState = undefined;
    nextHearTarget = undefined;
    settled = HEARD as Promise<never>;
  } else {
    opening = wait;
    settled = new Promise<never>(takeResolvers);
    opening = undefined;
  }
  if (wait.watching) watchRunAbort(runSignal, wait, runAborted);
  // A nested call is also waited for under its calling call: it never outlives it.
  if (signal.nested) signal.watch(wait, callAborted);
  if (deadlineMs !== undefined) wait.deadline = scheduleDeadline(deadlineMs, deadlineExpired, wait);
  // A native promise is followed directly; another thenable is adopted first (its `then` runs
  // later, as `await` would call it). A rejection after the wait ended is handled: it is ignored.
  (pending instanceof Promise ? pending : Promise.resolve(pending)).then(
    outputReturned.bind(wait),
    outputThrew.bind(wait),
  );
  return settled;
}

/** Arguments a wrap layer changed go through injection and validation again. */
async function revalidate(
  state: LoopState,
  entry: RegisteredTool,
  call: PendingCall,
): Promise<Record<string, unknown>> {
  const prepared = prepareToolArguments(call, entry.tool.injected, state.context.hostValues ?? {}, entry.name);
  const checked = await validateToolArguments(entry.tool, prepared, { signal: state.signal });
  if (!checked.ok) throw new ToolInputError({ toolName: entry.name, issues: checked.issues });
  return checked.value;
}

/**
 * Runs one admitted call under its resolved timeout and the run's signal, and classifies the end:
 * `ModelRetry` → retry result, `ToolFailedError` → failed result, approval/deferral errors →
 * deferral, cancellation → fatal (always propagates), anything else through the tool-error policy.
 * A synchronous `execute` is not raced against anything (it cannot be interrupted), and its outcome
 * comes back as is, without a promise (most tools, and a promise per call is a measurable share of
 * the loop's cost). With a ledger, the `started` row is written before `execute` and settled after
 * (`completed` for any returned result, error results included; `failed` for a throw, and for a
 * result that cannot be serialised, which is answered with a tool error whatever the tool-error policy).
 * The outcome passes {@link scrubOutcome} (the tool boundary) before anyone reads it.
 * @internal
 */
export function executeCall(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  callTool: NestedCallRunner,
  signal?: LazyCallSignal,
): CallOutcome | Promise<CallOutcome> {
  const startedAt = Date.now();
  // A call whose run already stopped never starts (and writes no `started` row).
  if (state.signal.aborted) return { kind: 'fatal', error: runStopError(state), startedAt, durationMs: 0 };
  enterCall(state, call.id, entry, args);
  // The tool boundary: nothing the tool produced leaves it with a host value or sensitive value in
  // it. Without a ledger `runCall` passes its outcome through it; with one, it is passed here.
  if (state.ledger === undefined)
    return runCall(state, call, entry, args, depth, callTool, startedAt, undefined, true, signal);
  const pending = scrubSettled(
    state,
    call.id,
    entry,
    args,
    depth,
    executeWithLedger(state, call, entry, args, depth, callTool, startedAt, signal),
  );
  // A nested call's ledger writes may outlast its caller: its outcome is reported when the caller ends.
  return signal?.nested ? raceCallerEnd(state, call, entry, signal, pending, startedAt) : pending;
}

/**
 * `pending`, or the nested call's fatal outcome as soon as its calling call or the run ends (see
 * {@link refuseEnded}), whichever comes first: a slow ledger write never holds the call's outcome
 * past its caller's end. What `pending` settles with later (its `settled` row still written) is
 * nobody's.
 */
async function raceCallerEnd(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  signal: LazyCallSignal,
  pending: Promise<CallOutcome>,
  startedAt: number,
): Promise<CallOutcome> {
  const watch: WrapWatch = { state, call, entry, signal, reject: ignore, listener: undefined };
  pending.catch(ignore);
  const ended = new Promise<never>((_, reject) => {
    watch.reject = reject;
  });
  if (canStop(state.signal)) watchRunAbort(state.signal, watch, wrapEnded);
  const listener = () => wrapEnded(watch);
  watch.listener = listener;
  signal.signal.addEventListener('abort', listener, { once: true });
  wrapEnded(watch);
  try {
    return await Promise.race([pending, ended]);
  } catch (error) {
    return { kind: 'fatal', error, startedAt, durationMs: Date.now() - startedAt };
  } finally {
    stopWrapWatch(watch);
  }
}

/** {@link scrubOutcome} once `pending` settles (an async function: no closure per call). */
async function scrubSettled(
  state: LoopState,
  callId: string,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  pending: Promise<CallOutcome>,
): Promise<CallOutcome> {
  return scrubOutcome(state, callId, entry, args, depth, await pending);
}

/** {@link executeCall} with a ledger: the `started` row before the call, the settled row after. */
async function executeWithLedger(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  callTool: NestedCallRunner,
  startedAt: number,
  signal: LazyCallSignal | undefined,
): Promise<CallOutcome> {
  let key: string;
  try {
    key = idempotencyKeyOf(state, call.id, entry, args);
  } catch (error) {
    // A key function that throws fails the call before it runs, as a throw of `execute` would (the
    // tool-error policy decides; `scrubSettled` scrubs the text); no ledger row is written.
    return thrown(state, error, startedAt);
  }
  const refused = await recordStarted(state, call, entry, key);
  if (refused !== undefined) return { kind: 'result', result: refused, startedAt, durationMs: 0 };
  const outcome = await runCall(state, call, entry, args, depth, callTool, startedAt, key, false, signal);
  // Cancellation leaves the row `started`: whether the effect happened is unknown until a resume reconciles it.
  if (!(outcome.kind === 'fatal' && isRunStop(outcome.error))) {
    await recordSettled(state, call.id, outcome.kind === 'result' && outcome.threw !== true ? 'completed' : 'failed');
  }
  return outcome;
}

function runCall(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  callTool: NestedCallRunner,
  startedAt: number,
  idempotencyKey: string | undefined,
  scrub: boolean,
  nestedSignal?: LazyCallSignal,
): CallOutcome | Promise<CallOutcome> {
  // A nested call runs under the signal its `callTool` made, linked to the calling call's since then.
  const signal = nestedSignal ?? new LazyCallSignal();
  const context = createCallContext(state, { callId: call.id, entry, args, idempotencyKey, signal, depth, callTool });
  let outcome: CallOutcome | Promise<CallOutcome>;
  try {
    if (state.signal.aborted) throw runStopError(state);
    // Its calling call ended while the ledger row was written: the tool does not run.
    if (signal.aborted) {
      // Refused before it ran: its tool-call budget slot is given back, as at admission.
      state.toolCalls -= 1;
      const parentCallId = call.id.slice(0, call.id.lastIndexOf('/'));
      const error = new NestedCallRefusedError({
        toolName: entry.name,
        parentCallId,
        refusal: signal.refusal,
        cause: signal.abortReason,
      });
      outcome = { kind: 'fatal', error, startedAt, durationMs: Date.now() - startedAt };
    } else if (state.wrapsTools) {
      outcome = runWrapped(state, call, entry, args, context, signal, startedAt);
    } else {
      const output = entry.tool.execute(args as never, context);
      // An asynchronous output: one async function awaits it and ends the call (no `finally` chain).
      if (isPromiseLike(output)) return settleOutput(state, entry, output, args, signal, context, startedAt, scrub);
      // Ended before its output is read: a getter or `toJSON` on the output starts no nested call.
      endCall(context);
      outcome = returned(entry, resultOfOutput(state, entry, output), startedAt);
    }
  } catch (error) {
    outcome = thrown(state, error, startedAt);
  }
  if (!(outcome instanceof Promise)) {
    endCall(context);
    return scrub ? scrubOutcome(state, call.id, entry, args, depth, outcome) : outcome;
  }
  const ended = outcome.finally(() => endCall(context));
  return scrub ? scrubSettled(state, call.id, entry, args, depth, ended) : ended;
}

/**
 * An asynchronous `execute`'s output, awaited under the call's deadline and the run's signal
 * ({@link openWait}): whichever comes first ends the call's context and gives its outcome, through
 * the tool boundary with `scrub`. The tool's `timeoutPolicy` may throw: the call then fails as if
 * `execute` had thrown it (through the tool-error policy).
 */
function settleOutput(
  state: LoopState,
  entry: RegisteredTool,
  output: PromiseLike<ToolOutput>,
  args: Record<string, unknown>,
  signal: LazyCallSignal,
  context: ToolExecutionContext,
  startedAt: number,
  scrub: boolean,
): Promise<CallOutcome> {
  let timeout: ResolvedToolTimeout;
  try {
    timeout = timeoutOf(state, entry, args);
  } catch (error) {
    // The tool's own timeout rule threw: the call fails as if `execute` had thrown it (the
    // tool-error policy decides, the text passes the tool boundary); its output is not awaited.
    Promise.resolve(output).then(ignore, ignore);
    signal.abort(error);
    endCall(context);
    const outcome = thrown(state, error, startedAt);
    return Promise.resolve(scrub ? scrubOutcome(state, context.callId, entry, args, context.depth, outcome) : outcome);
  }
  return openWait(state, output, signal, entry, context.callId, timeout, context, args, startedAt, scrub);
}

/** The tool's resolved timeout for `args`. */
function timeoutOf(state: LoopState, entry: RegisteredTool, args: Record<string, unknown>): ResolvedToolTimeout {
  return resolveToolTimeout(entry.tool.timeoutPolicy(args as never), state.limits.toolTimeouts);
}

/** Waits for an output (promised or not) under the tool's resolved timeout and the run's signal. */
async function settle(
  state: LoopState,
  entry: RegisteredTool,
  output: ToolOutput | PromiseLike<ToolOutput>,
  args: Record<string, unknown>,
  signal: LazyCallSignal,
  callId: string,
): Promise<ToolOutput> {
  if (!isPromiseLike(output)) return output;
  let timeout: ResolvedToolTimeout;
  try {
    timeout = timeoutOf(state, entry, args);
  } catch (error) {
    // Rejects `next()` as the tool's own throw would; the output is not awaited.
    Promise.resolve(output).then(ignore, ignore);
    throw error;
  }
  // Nothing can interrupt the run (no deadline, a run that cannot stop, not a nested call): awaited as it is.
  if (timeout.deadlineMs === undefined && !canStop(state.signal) && !signal.nested) return await output;
  return await openWait(state, output, signal, entry, callId, timeout, undefined, args, 0, false);
}

/**
 * Throws when the call may no longer run its tool: the run stopped (its stop error), or a nested
 * call's calling call or the run ended (`NestedCallRefusedError`; it ends the call `fatal`), or the
 * call's own signal was aborted (its reason, a deadline's `ToolTimeoutError`). Checked in the
 * innermost step of the `wrapTool` onion: a layer that awaits, or retries, before `next()` never
 * runs the tool once the call or its caller ended.
 */
function refuseEnded(state: LoopState, call: PendingCall, entry: RegisteredTool, signal: LazyCallSignal): void {
  if (state.signal.aborted) throw runStopError(state);
  if (signal.nested && !timedOut.has(signal) && (signal.aborted || state.sink.ended)) {
    const error = new NestedCallRefusedError({
      toolName: entry.name,
      parentCallId: call.id.slice(0, call.id.lastIndexOf('/')),
      refusal: signal.aborted ? signal.refusal : 'run_ended',
      started: true,
      cause: signal.abortReason,
    });
    abandoned.add(error);
    throw error;
  }
  if (signal.aborted) throw signal.abortReason;
}

/**
 * What ends a wrapped call before its wrap layers do: the run's abort, and for a nested call its
 * calling call's end. `ended` rejects with the call's outcome error at once; `stop` ends the watch.
 */
interface WrapWatch {
  readonly state: LoopState;
  readonly call: PendingCall;
  readonly entry: RegisteredTool;
  readonly signal: LazyCallSignal;
  reject: (error: unknown) => void;
  listener: (() => void) | undefined;
}

function wrapEnded(watch: WrapWatch): void {
  // Its own deadline ended it: the tool's wait rejects with the timeout, through the layers.
  if (timedOut.has(watch.signal) && !watch.state.signal.aborted) return;
  try {
    refuseEnded(watch.state, watch.call, watch.entry, watch.signal);
  } catch (error) {
    markToolError(error);
    watch.reject(error);
  }
}

function stopWrapWatch(watch: WrapWatch): void {
  unwatchRunAbort(watch.state.signal, watch);
  if (watch.listener !== undefined) watch.signal.signal.removeEventListener('abort', watch.listener);
}

/**
 * Why a wrap layer's `next()` reached no tool: the call's outcome was settled before it (a layer
 * that answered and calls `next()` later, a write-behind). Only that layer sees it.
 */
function callEnded(call: PendingCall, entry: RegisteredTool): ToolExecutionError {
  return new ToolExecutionError({
    toolName: entry.name,
    callId: call.id,
    cause: new Error('the call had ended: a wrapTool layer called next() after the call was answered'),
  });
}

/**
 * The call through the `wrapTool` middleware onion; arguments a layer changed are validated again.
 * The onion is raced against the run's abort and, for a nested call, its calling call's end: the
 * call's one outcome is reported as soon as either ends, whatever the layers still do. Before each
 * layer and the tool, the call is checked ({@link refuseEnded}, and its own end: a layer calling
 * `next()` after the call was answered reaches nothing). The calling tool ends when its `execute`
 * settles, not when the layers do: its nested calls are aborted then, and later ones refused.
 */
async function runWrapped(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  context: ToolExecutionContext,
  signal: LazyCallSignal,
  startedAt: number,
): Promise<CallOutcome> {
  const checkAlive = (): void => {
    try {
      refuseEnded(state, call, entry, signal);
      if (isCallEnded(context)) throw callEnded(call, entry);
    } catch (error) {
      markToolError(error);
      throw error;
    }
  };
  const innermost = async (wrapped: PendingCall): Promise<ToolResult> => {
    checkAlive();
    try {
      const callArgs = wrapped.arguments === call.arguments ? args : await revalidate(state, entry, wrapped);
      checkAlive();
      // This run of `execute` gets its own view of the context: once it settles, its late
      // `callTool`, `emit` and `reportProgress` are refused or dropped, even while a retry runs.
      const run = resumeCall(context);
      let output: ToolOutput;
      try {
        output = await settle(state, entry, entry.tool.execute(callArgs as never, run), callArgs, signal, call.id);
      } finally {
        pauseCall(context, run);
      }
      // Read once this execute ended: a getter or `toJSON` on the output starts no nested call.
      return resultOfOutput(state, entry, output);
    } catch (error) {
      markToolError(error);
      throw error;
    }
  };
  const watching = canStop(state.signal) || signal.nested;
  const watch: WrapWatch = { state, call, entry, signal, reject: ignore, listener: undefined };
  try {
    const stack = wrapToolOnion(state, innermost, middlewareContext(state, state.turn), checkAlive)(call);
    let result: ToolResult;
    if (!watching) result = await stack;
    else {
      // The layers may go on after the call ended: what they settle with later is nobody's.
      stack.catch(ignore);
      const ended = new Promise<never>((_, reject) => {
        watch.reject = reject;
      });
      if (canStop(state.signal)) watchRunAbort(state.signal, watch, wrapEnded);
      if (signal.nested) {
        const listener = () => wrapEnded(watch);
        watch.listener = listener;
        signal.signal.addEventListener('abort', listener, { once: true });
      }
      // Ended before the race began (a layer aborted it synchronously): reported at once.
      wrapEnded(watch);
      result = await Promise.race([stack, ended]);
    }
    return returned(entry, result, startedAt);
  } catch (error) {
    return thrown(state, error, startedAt);
  } finally {
    if (watching) stopWrapWatch(watch);
    // Settled: a layer that calls `next()` from now on reaches nothing.
    endCall(context);
  }
}

/** The outcome of a returned result; one that cannot be serialised is answered with a tool error. */
function returned(entry: RegisteredTool, result: ToolResult, startedAt: number): CallOutcome {
  const durationMs = Date.now() - startedAt;
  const unserializable = unserializableReason(result);
  if (unserializable === undefined) return { kind: 'result', result, startedAt, durationMs };
  return {
    kind: 'result',
    result: unserializableResult(entry.name, unserializable),
    startedAt,
    durationMs,
    threw: true,
  };
}

/** Classifies what a call threw (see {@link executeCall}). */
function thrown(state: LoopState, error: unknown, startedAt: number): CallOutcome {
  try {
    return classifyThrown(state, error, startedAt);
  } catch {
    // Reading what was thrown threw (a proxy's trap, a getter): it ends the call as an unreadable
    // throw the tool-error policy does not get to read, never as an exception out of the call's wait.
    return { kind: 'fatal', error, startedAt, durationMs: Date.now() - startedAt };
  }
}

function classifyThrown(state: LoopState, error: unknown, startedAt: number): CallOutcome {
  const durationMs = Date.now() - startedAt;
  if (MiddlewareError.isInstance(error) || abandoned.has(error as object))
    return { kind: 'fatal', error, startedAt, durationMs };
  if (isRunStop(error) || state.signal.aborted) {
    return { kind: 'fatal', error: isRunStop(error) ? error : runStopError(state), startedAt, durationMs };
  }
  const result = (value: ToolResult): CallOutcome => ({
    kind: 'result',
    result: value,
    startedAt,
    durationMs,
    threw: true,
  });
  if (ModelRetry.isInstance(error)) return result(ToolResult.retry(error.advice));
  if (ToolFailedError.isInstance(error)) return result(ToolResult.failed(error.reason));
  if (ApprovalRequiredError.isInstance(error) || CallDeferredError.isInstance(error)) {
    const approval = ApprovalRequiredError.isInstance(error);
    return {
      kind: 'defer',
      approval,
      reason: pauseReason(error.reason),
      metadata: error.metadata,
      startedAt,
      durationMs,
    };
  }
  const policy = state.policy.toolErrors;
  if (policy.kind === 'return_error') return result(ToolResult.error(describeSafely(error)));
  if (policy.kind === 'message') return result(ToolResult.error(policy.message));
  return { kind: 'fatal', error, startedAt, durationMs };
}
