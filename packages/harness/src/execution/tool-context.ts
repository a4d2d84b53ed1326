import type { JsonValue, ToolExecutionContext, ToolProgress, ToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';
import { isApprovedCall } from '../deferral/approved-call.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import type { AgentEventOf } from '../events/agent-event.js';
import { declaredFields } from '../events/declared-fields.js';
import { recordedValue } from '../events/recorded-value.js';
import { idempotencyKeyOf } from '../ledger/record-effect.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { lineageSecrets, reportSecrets } from './scrub-outcome.js';
import { scrubValue } from './scrub-value.js';

/** The event's copy of what the tool reported (see `recordedValue`): the tool may keep and edit its objects. */
const recorded = <T>(value: T): T => recordedValue(value) as T;

/**
 * The per-call abort signal, created only if the tool reads `context.signal` (most tools never
 * do, and an `AbortController` per call is a measurable share of loop overhead). Aborting before
 * the signal exists records the reason, so a late reader still sees an aborted signal.
 * @internal
 */
export class LazyCallSignal {
  private controller: AbortController | undefined;
  private reason: unknown;
  private stopped = false;
  /** The signals of this call's nested calls still running: aborting this call aborts them. */
  private children: Set<LazyCallSignal> | undefined;
  /** The signal the calling tool gave `callTool` for this nested call, and the listener that aborts it. */
  private stopSource: { readonly stop: AbortSignal; readonly onStop: () => void } | undefined;
  /** Whether this call was aborted by the signal given to `callTool` (not by its calling call's end). */
  private stoppedBySignal = false;
  /** What waits for this (nested) call's output, told once the call is aborted (see {@link watch}). */
  private waiter: { readonly target: object; readonly onAbort: (target: never) => void } | undefined;

  /** @param nested - a nested call's signal: aborting it (its calling call ended) ends the wait for its output. */
  constructor(readonly nested = false) {}

  /** Calls `onAbort(target)` once this signal aborts, unless {@link unwatch} came first (one waiter). */
  watch<T extends object>(target: T, onAbort: (target: T) => void): void {
    this.waiter = { target, onAbort: onAbort as (target: never) => void };
  }

  unwatch(): void {
    this.waiter = undefined;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Whether the call was aborted (its signal read or not). */
  get aborted(): boolean {
    return this.stopped;
  }

  /** The reason the call was aborted with, if it was. */
  get abortReason(): unknown {
    return this.reason;
  }

  abort(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.abortChildren(reason);
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      (waiter.onAbort as (target: object) => void)(waiter.target);
    }
  }

  /** Links a nested call's signal to this one until {@link unlink}: it is aborted with this. */
  link(child: LazyCallSignal): void {
    if (this.stopped) child.abort(this.reason);
    else {
      this.children ??= new Set();
      this.children.add(child);
    }
  }

  unlink(child: LazyCallSignal): void {
    this.children?.delete(child);
  }

  /** Whether `child` is linked to this signal: the nested call is still running. */
  isLinked(child: LazyCallSignal): boolean {
    return this.children?.has(child) === true;
  }

  /** Whether nested calls linked to this one are still running. */
  get hasChildren(): boolean {
    return this.children !== undefined && this.children.size > 0;
  }

  /** Aborts the nested calls still running (their calling tool ended, or asked so). */
  abortChildren(reason: unknown): void {
    const children = this.children;
    if (children === undefined || children.size === 0) return;
    this.children = undefined;
    for (const child of children) child.abort(reason);
  }

  /**
   * Aborts this (nested) call once `stop`, the signal its calling tool gave `callTool`, aborts; only
   * this call: its siblings and later calls are not concerned. Ended by {@link detach}.
   */
  abortOn(stop: AbortSignal): void {
    const onStop = () => {
      this.stoppedBySignal = true;
      this.abort(stop.reason);
    };
    this.stopSource = { stop, onStop };
    stop.addEventListener('abort', onStop, { once: true });
  }

  /** The call ended: the signal given to `callTool` no longer concerns it. */
  detach(): void {
    const source = this.stopSource;
    if (source === undefined) return;
    this.stopSource = undefined;
    source.stop.removeEventListener('abort', source.onStop);
  }

  /** Why a nested call aborted this way is refused: its own `callTool` signal, or its calling call's end. */
  get refusal(): 'parent_ended' | 'signal_aborted' {
    return this.stoppedBySignal ? 'signal_aborted' : 'parent_ended';
  }
}

interface CallContextOptions {
  readonly callId: string;
  readonly entry: RegisteredTool;
  readonly args: Record<string, unknown>;
  /** The idempotency key when the caller already has it (a ledger); else hashed on first read (hashing costs more than most calls). */
  readonly idempotencyKey: string | undefined;
  readonly signal: LazyCallSignal;
  readonly depth: number;
  /**
   * Runs a nested call for `parent` (the calling tool; its `nestedTools` are looked up first) under
   * `signal`, already linked to the calling call's `parentSignal` (the runner unlinks it when it ends).
   */
  readonly callTool: (
    parentId: string,
    depth: number,
    name: string,
    args: unknown,
    parent: RegisteredTool,
    signal: LazyCallSignal,
    parentSignal: LazyCallSignal,
  ) => Promise<ToolResult>;
}

/**
 * The context a tool sees for one call: run and call ids, the call's signal (run cancellation and
 * the tool's own deadline), host state and store, `custom` events and progress (both only while the
 * call runs, see {@link endCall}; fractions clamped to 0..1, NaN dropped), and `callTool` for nested calls
 * (ids `<callId>/<n>`). A class with no closures, so the per-call cost is one small object.
 * @internal
 */
class CallContext implements ToolExecutionContext {
  readonly callId: string;
  readonly depth: number;
  readonly preferMarkdown: boolean;
  readonly streaming = false;
  readonly approved: boolean;
  #idempotencyKey: string | undefined;
  /** Whether the call may report and make nested calls: its `execute` runs (see {@link CallContext.pause}). */
  #running = true;
  /** Whether the call's outcome is settled: it never runs again (see {@link CallContext.end}). */
  #ended = false;
  /** The `execute` runs of a wrapped call under way (a `wrapTool` layer may call `next()` more than once). */
  #executing = 0;
  #callTool: ToolExecutionContext['callTool'] | undefined;
  #reportSecrets: readonly string[] | undefined;
  readonly #loop: LoopState;
  readonly #options: CallContextOptions;

  /**
   * One context alive as long as the class, built from placeholders (it never runs), and its signal.
   * V8 frees the hidden class of an object once a full collection finds none alive, and deoptimises
   * the code compiled against it: where every call's context and signal die between requests (a
   * handler that drops its harness, a `gc()` before each), the per-call path was recompiled after each
   * full collection.
   */
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: held, never read: it keeps the instances' hidden class alive
  static readonly #keptAlive = new CallContext(
    { policy: { preferMarkdown: false }, approvedCalls: new Set() } as unknown as LoopState,
    {
      callId: '',
      entry: { tool: { supportsMarkdown: false } },
      idempotencyKey: undefined,
      signal: new LazyCallSignal(),
      depth: 0,
    } as unknown as CallContextOptions,
  );

  constructor(state: LoopState, options: CallContextOptions) {
    this.#loop = state;
    this.#options = options;
    this.callId = options.callId;
    this.depth = options.depth;
    this.preferMarkdown = state.policy.preferMarkdown && options.entry.tool.supportsMarkdown;
    this.approved =
      state.approvedCalls.size > 0 &&
      isApprovedCall(state, options.callId, options.entry.name, { nested: options.depth > 0 });
    this.#idempotencyKey = options.idempotencyKey;
  }

  /** Marks the call finished: later events and progress reports are dropped, later nested calls refused. */
  static end(context: CallContext): void {
    context.#ended = true;
    CallContext.stop(context);
  }

  /** The call's `execute` stopped running: its nested calls still running are aborted. */
  private static stop(context: CallContext): void {
    context.#running = false;
    const { callId, signal } = context.#options;
    // Nested calls still running when their calling tool ends are aborted (the reason, a
    // `DOMException` that captures a stack, is built only then: most calls have none).
    if (signal.hasChildren)
      signal.abortChildren(new DOMException(`the calling tool's call \`${callId}\` ended`, 'AbortError'));
  }

  /**
   * A wrapped call's `execute` starts (a `wrapTool` layer's `next()` reached the tool): the call runs
   * (again, for a layer that retries) unless its outcome is settled.
   */
  static resume(context: CallContext): void {
    context.#executing += 1;
    context.#running = !context.#ended;
  }

  /**
   * A wrapped call's `execute` settled: the calling tool ended, whatever its layers still do with its
   * result (nested calls it left running are aborted, later ones refused), until a layer runs it again.
   */
  static pause(context: CallContext): void {
    context.#executing -= 1;
    if (context.#executing === 0 && context.#running) CallContext.stop(context);
  }

  /** The call's signal, which its nested calls' signals are linked to. */
  static signalOf(context: CallContext): LazyCallSignal {
    return context.#options.signal;
  }

  /** Whether the call's outcome is settled. */
  static ended(context: CallContext): boolean {
    return context.#ended;
  }

  get idempotencyKey(): string {
    this.#idempotencyKey ??= idempotencyKeyOf(this.#loop, this.callId, this.#options.entry, this.#options.args);
    return this.#idempotencyKey;
  }

  get runId(): string {
    return this.#loop.runId;
  }
  get threadId(): string | undefined {
    return this.#loop.context.threadId;
  }
  get signal(): AbortSignal {
    return this.#options.signal.signal;
  }
  get workspace(): ToolExecutionContext['workspace'] {
    return this.#loop.context.workspace;
  }
  get store(): unknown {
    return this.#loop.context.store;
  }
  get state(): unknown {
    return this.#loop.context.state;
  }

  /** Host values and sensitive argument values, scrubbed from what the tool reports (the tool boundary). */
  #secrets(): readonly string[] {
    // The call's own secrets, and those of the calls it is nested in (a parent passing its key on).
    this.#reportSecrets ??=
      this.depth === 0
        ? reportSecrets(this.#options.entry, this.#options.args)
        : lineageSecrets(this.#loop, this.callId);
    return this.#reportSecrets;
  }

  emit(payload: JsonValue): void {
    const sink = this.#loop.sink;
    // As progress: a call that ended (a nested call abandoned by its caller included) reports nothing more.
    if (sink.active && this.#running)
      sink.emit({ type: 'custom', callId: this.callId, payload: recorded(scrubValue(payload, this.#secrets())) });
  }

  reportProgress(progress: ToolProgress): void {
    const sink = this.#loop.sink;
    if (!sink.active || !this.#running) return;
    // Only the fields a progress report declares, copied: `type` and `callId` are the harness's.
    const { fraction, ...fields } = declaredFields('tool_progress', scrubValue(progress, this.#secrets()));
    const clamped =
      typeof fraction !== 'number' || Number.isNaN(fraction) ? undefined : Math.min(1, Math.max(0, fraction));
    sink.emit({
      ...(fields as Omit<AgentEventOf<'tool_progress'>, 'type' | 'callId'>),
      type: 'tool_progress',
      callId: this.callId,
      ...(clamped === undefined ? {} : { fraction: clamped }),
    });
  }

  /** Nested calls; a bound function (made on first read), so `const { callTool } = context` works. */
  get callTool(): ToolExecutionContext['callTool'] {
    // An optional third argument `{ signal }` (code mode's program): aborting it aborts the nested calls.
    this.#callTool ??= (name, args, ...rest: unknown[]) => {
      const parentSignal = this.#options.signal;
      // Bound to this call from the moment it is made: none starts once this call ended, and one
      // made while it runs is aborted with it (the runner refuses it if that happens during admission).
      if (!this.#running)
        return handled(
          Promise.reject(
            new NestedCallRefusedError({
              toolName: String(name),
              parentCallId: this.callId,
              refusal: 'parent_ended',
              cause: parentSignal.abortReason,
            }),
          ),
        );
      const stop = (rest[0] as { signal?: unknown } | undefined)?.signal;
      // A signal already aborted refuses this call only; one aborting later aborts this call only.
      if (stop instanceof AbortSignal && stop.aborted)
        return handled(
          Promise.reject(
            new NestedCallRefusedError({
              toolName: String(name),
              parentCallId: this.callId,
              refusal: 'signal_aborted',
              cause: stop.reason,
            }),
          ),
        );
      const signal = new LazyCallSignal(true);
      if (stop instanceof AbortSignal) signal.abortOn(stop);
      parentSignal.link(signal);
      collecting?.add(signal);
      return handled(
        this.#options.callTool(this.callId, this.depth, name, args, this.#options.entry, signal, parentSignal),
      );
    };
    return this.#callTool;
  }
}

/** Where the `callTool` of a run of a wrapped call's `execute` records the signal it links (see {@link ExecuteRun}). */
let collecting: Set<LazyCallSignal> | undefined;

/**
 * What one run of a wrapped call's `execute` sees (a `wrapTool` layer may call `next()` more than
 * once, in turn or at once): the call's context, with `emit`, `reportProgress` and `callTool` live
 * only while THIS run of `execute` runs. A run that ended (threw, returned) makes no nested call and
 * reports nothing, even while a retry of the same call runs. Made only for wrapped calls.
 * @internal
 */
class ExecuteRun implements ToolExecutionContext {
  readonly #context: CallContext;
  /** Whether this run of `execute` is still running (see {@link endExecuteRun}). */
  #live = true;
  #callTool: ToolExecutionContext['callTool'] | undefined;
  /** The signals of the nested calls this run started (made on its first `callTool`). */
  #started: Set<LazyCallSignal> | undefined;

  constructor(context: CallContext) {
    this.#context = context;
  }

  /** This run of `execute` settled: the nested calls it started that still run are aborted. */
  static end(run: ExecuteRun): void {
    run.#live = false;
    const started = run.#started;
    if (started === undefined) return;
    run.#started = undefined;
    const parent = CallContext.signalOf(run.#context);
    let reason: DOMException | undefined;
    for (const child of started) {
      if (!parent.isLinked(child)) continue;
      reason ??= new DOMException(`a run of the calling tool's call \`${run.callId}\` ended`, 'AbortError');
      parent.unlink(child);
      child.abort(reason);
    }
  }

  get callId(): string {
    return this.#context.callId;
  }
  get depth(): number {
    return this.#context.depth;
  }
  get preferMarkdown(): boolean {
    return this.#context.preferMarkdown;
  }
  get streaming(): boolean {
    return this.#context.streaming;
  }
  get approved(): boolean {
    return this.#context.approved;
  }
  get idempotencyKey(): string {
    return this.#context.idempotencyKey;
  }
  get runId(): string {
    return this.#context.runId;
  }
  get threadId(): string | undefined {
    return this.#context.threadId;
  }
  get signal(): AbortSignal {
    return this.#context.signal;
  }
  get workspace(): ToolExecutionContext['workspace'] {
    return this.#context.workspace;
  }
  get store(): unknown {
    return this.#context.store;
  }
  get state(): unknown {
    return this.#context.state;
  }

  emit(payload: JsonValue): void {
    if (this.#live) this.#context.emit(payload);
  }

  reportProgress(progress: ToolProgress): void {
    if (this.#live) this.#context.reportProgress(progress);
  }

  /** The call's `callTool` while this run of `execute` runs; refused (`parent_ended`) once it ended. */
  get callTool(): ToolExecutionContext['callTool'] {
    this.#callTool ??= (name, args, ...rest: unknown[]) => {
      if (!this.#live)
        return handled(
          Promise.reject(
            new NestedCallRefusedError({
              toolName: String(name),
              parentCallId: this.callId,
              refusal: 'parent_ended',
              cause: CallContext.signalOf(this.#context).abortReason,
            }),
          ),
        );
      const callTool = this.#context.callTool as (
        name: string,
        args: unknown,
        ...rest: unknown[]
      ) => Promise<ToolResult>;
      // The nested call's signal is recorded as this run's (linked synchronously by `callTool`).
      this.#started ??= new Set();
      collecting = this.#started;
      try {
        return callTool(name, args, ...rest);
      } finally {
        collecting = undefined;
      }
    };
    return this.#callTool;
  }
}

/** The context for one call (see {@link CallContext}). @internal */
export function createCallContext(state: LoopState, options: CallContextOptions): ToolExecutionContext {
  return new CallContext(state, options);
}

/** Ends a call's context: progress reported after this is dropped. @internal */
export function endCall(context: ToolExecutionContext): void {
  if (context instanceof CallContext) CallContext.end(context);
}

/**
 * A wrapped call's `execute` starts (see {@link CallContext.resume}): the context this run of
 * `execute` is given, live until {@link pauseCall} ends it (see {@link ExecuteRun}). @internal
 */
export function resumeCall(context: ToolExecutionContext): ToolExecutionContext {
  if (!(context instanceof CallContext)) return context;
  CallContext.resume(context);
  return new ExecuteRun(context);
}

/** A wrapped call's `execute` run settled (see {@link CallContext.pause}): `run` makes no more calls. @internal */
export function pauseCall(context: ToolExecutionContext, run: ToolExecutionContext): void {
  if (run instanceof ExecuteRun) ExecuteRun.end(run);
  if (context instanceof CallContext) CallContext.pause(context);
}

/** Whether a call's outcome is settled ({@link endCall} ran). @internal */
export function isCallEnded(context: ToolExecutionContext): boolean {
  return context instanceof CallContext && CallContext.ended(context);
}

/**
 * `promise`, marked handled: a `callTool` nobody awaits (fire and forget, refused once its caller
 * ended) never surfaces as an unhandled rejection that would end the process; whoever awaits it still
 * gets its rejection, and its outcome is in the run's events.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
