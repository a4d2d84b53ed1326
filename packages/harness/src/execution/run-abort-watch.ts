/**
 * What waits for a run signal to abort, per signal: each waiter and the function to call it with.
 * A run's calls each wait on the run signal; one `abort` listener per signal, fanning out to a
 * `Map`, replaces a listener added to and removed from the signal's `EventTarget` per call (a
 * measurable share of an async call), and a waiter with a module-level callback needs no closure.
 */
const waiting = new WeakMap<AbortSignal, Map<object, (waiter: never) => void>>();

/**
 * Calls `onAbort(waiter)` once `signal` aborts, unless {@link unwatchRunAbort} removed `waiter`
 * first. The caller checks `signal.aborted` before: a signal that already aborted never calls back.
 * @internal
 */
export function watchRunAbort<T extends object>(signal: AbortSignal, waiter: T, onAbort: (waiter: T) => void): void {
  let waiters = waiting.get(signal);
  if (waiters === undefined) {
    const created = new Map<object, (waiter: never) => void>();
    waiters = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        // A callback may stop another from waiting (as `removeEventListener` during a dispatch does).
        for (const [entry, callback] of created) (callback as (waiter: object) => void)(entry);
        waiting.delete(signal);
      },
      { once: true },
    );
  }
  waiters.set(waiter, onAbort as (waiter: never) => void);
}

/** Stops waiting: `waiter`'s callback will not be called. @internal */
export function unwatchRunAbort(signal: AbortSignal, waiter: object): void {
  waiting.get(signal)?.delete(waiter);
}
