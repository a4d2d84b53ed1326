import type { Message } from '@tiny/llm';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { RunCancelledError } from '../errors/run-cancelled-error.js';
import type { EventSink } from '../events/event-sink.js';

/** `setTimeout` holds at most a signed 32-bit delay; longer deadlines are re-armed in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The run's wall-clock deadline. It aborts the run signal (the one every model call and tool
 * already receives) when it passes, with a `LimitExceededError` as the reason.
 * @internal
 */
export interface RunDeadline {
  /** Absolute time (ms since epoch) the run must end by. */
  readonly at: number;
  readonly limit: number;
  /** The abort reason the deadline uses, to tell it from the host's own cancellation. */
  readonly reason: LimitExceededError;
  /** Aborts the run signal now (idempotent); called by the timer and by checks that see the time passed. */
  expire(): void;
  /** Whether `limit_reached` was emitted already. */
  reported: boolean;
}

/** The run's signal (the host's, or one combining it with the deadline) and its deadline. @internal */
export interface RunStop {
  readonly signal: AbortSignal;
  readonly deadline: RunDeadline | undefined;
  /** Clears the timer and detaches from the host's signal. */
  dispose(): void;
}

/** Run signals nothing can abort (no host signal, no deadline); waits skip racing them. */
const silentSignals = new WeakSet<AbortSignal>();

/** Whether `signal` can ever fire (false for a run with no host signal and no deadline). @internal */
export function canStop(signal: AbortSignal): boolean {
  return !silentSignals.has(signal);
}

/**
 * Builds the run signal. Without a finite `wallClockMs` it is the host's signal (or one that never
 * fires). With one, a new signal follows the host's and also fires at the deadline; in-flight model
 * calls and tools are raced against it, so one that ignores its signal cannot hold the run past it.
 * @internal
 */
export function createRunStop(hostSignal: AbortSignal | undefined, wallClockMs: number | undefined): RunStop {
  if (wallClockMs === undefined || !Number.isFinite(wallClockMs)) {
    if (hostSignal !== undefined) return { signal: hostSignal, deadline: undefined, dispose: () => {} };
    const signal = new AbortController().signal;
    silentSignals.add(signal);
    return { signal, deadline: undefined, dispose: () => {} };
  }
  const controller = new AbortController();
  const at = Date.now() + wallClockMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onHostAbort = () => controller.abort(hostSignal?.reason);
  const deadline: RunDeadline = {
    at,
    limit: wallClockMs,
    reason: new LimitExceededError({ limitKind: 'wall_clock', limit: wallClockMs, messages: [] }),
    expire: () => {
      if (!controller.signal.aborted) controller.abort(deadline.reason);
    },
    reported: false,
  };
  const arm = () => {
    const remaining = at - Date.now();
    if (remaining <= 0) return deadline.expire();
    timer = setTimeout(arm, Math.min(remaining, MAX_TIMER_MS));
  };
  if (hostSignal?.aborted) controller.abort(hostSignal.reason);
  else {
    hostSignal?.addEventListener('abort', onHostAbort, { once: true });
    arm();
  }
  return {
    signal: controller.signal,
    deadline,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      hostSignal?.removeEventListener('abort', onHostAbort);
    },
  };
}

/** What {@link runStopError} needs of the loop state. @internal */
export interface StoppableState {
  readonly signal: AbortSignal;
  readonly deadline: RunDeadline | undefined;
  readonly sink: EventSink;
  readonly history: readonly Message[];
}

/**
 * The error a stopped run ends with: `LimitExceededError` (`wall_clock`, after one `limit_reached`
 * event) when the deadline fired, `RunCancelledError` when the host's signal did.
 * @internal
 */
export function runStopError(state: StoppableState): RunCancelledError | LimitExceededError {
  const deadline = state.deadline;
  if (deadline !== undefined && (state.signal.reason === deadline.reason || !state.signal.aborted)) {
    deadline.expire();
    if (!deadline.reported) {
      deadline.reported = true;
      if (state.sink.active) state.sink.emit({ type: 'limit_reached', limitKind: 'wall_clock', limit: deadline.limit });
    }
    return new LimitExceededError({
      limitKind: 'wall_clock',
      limit: deadline.limit,
      messages: state.history,
      cause: deadline.reason,
    });
  }
  return new RunCancelledError({ reason: state.signal.reason, messages: state.history });
}

/** Whether `error` is how a stopped run ends (cancellation or the wall-clock deadline). @internal */
export function isRunStop(error: unknown): error is RunCancelledError | LimitExceededError {
  return (
    RunCancelledError.isInstance(error) || (LimitExceededError.isInstance(error) && error.limitKind === 'wall_clock')
  );
}

/**
 * Settles with `pending`, or rejects with {@link runStopError} as soon as the run signal fires,
 * whether or not the work behind `pending` honours the signal (a late settlement is ignored).
 * @internal
 */
export function raceRunStop<T>(state: StoppableState, pending: PromiseLike<T>): Promise<T> {
  const signal = state.signal;
  const settled = Promise.resolve(pending);
  if (!canStop(signal)) return settled;
  if (signal.aborted) {
    settled.catch(() => undefined);
    return Promise.reject(runStopError(state));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      settled.catch(() => undefined);
      reject(runStopError(state));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    settled.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
