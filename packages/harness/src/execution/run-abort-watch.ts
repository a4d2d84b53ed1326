/**
 * Callbacks waiting for a run signal to abort, per signal. A run's calls each wait on the run
 * signal; one `abort` listener per signal, fanning out to a `Set`, replaces a listener added to
 * and removed from the signal's `EventTarget` per call (a measurable share of an async call).
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` once `signal` aborts, unless {@link unwatchRunAbort} removed it first. The caller
 * checks `signal.aborted` before: a signal that already aborted never calls back.
 * @internal
 */
export function watchRunAbort(signal: AbortSignal, onAbort: () => void): void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        // A callback may stop another from waiting (as `removeEventListener` during a dispatch does).
        for (const callback of created) callback();
        waiting.delete(signal);
      },
      { once: true },
    );
  }
  callbacks.add(onAbort);
}

/** Stops waiting: `onAbort` will not be called. @internal */
export function unwatchRunAbort(signal: AbortSignal, onAbort: () => void): void {
  waiting.get(signal)?.delete(onAbort);
}
