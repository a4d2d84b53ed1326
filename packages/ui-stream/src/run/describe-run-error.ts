import { ModelCallError, RunCancelledError } from '@tiny/harness';

/** The text shown for an error the run did not describe itself: never the error's own message. */
export const GENERIC_ERROR_TEXT = 'the run failed (the server logged the details).';

/** An error's `name` when it is a short plain name (letters, digits, `_`, `.`), else `Error`. Never throws. */
export function describeErrorName(error: unknown): string {
  try {
    const name = error instanceof Error ? error.name : undefined;
    return typeof name === 'string' && /^[A-Za-z_][\w.]{0,63}$/.test(name) ? name : 'Error';
  } catch {
    return 'Error';
  }
}

/**
 * The text a stream shows for a run's error: the error's name, the `ModelCallError.kind` in
 * parentheses when it is one (WIRE-3), then the message the run's `run_failed` event carried (the
 * harness's redacted text). An error without such an event (an approval store that threw while
 * keeping the paused run, a host callback) is described generically: its name and a fixed text,
 * never its own message (it may hold state or secrets); the host reads it through `onError`.
 */
export function describeRunError(error: unknown, eventText: string | undefined): string {
  const name = describeErrorName(error);
  let kind = '';
  try {
    kind = ModelCallError.isInstance(error) ? ` (${error.kind})` : '';
  } catch {
    kind = '';
  }
  return `${name}${kind}: ${eventText ?? GENERIC_ERROR_TEXT}`;
}

/** Whether `error` is a run cancellation (the host's signal fired): the stream reports an abort, not an error. */
export function isCancellation(error: unknown): boolean {
  try {
    return RunCancelledError.isInstance(error);
  } catch {
    return false;
  }
}

/** Calls the host's `onError` hook, if any; a hook that throws is ignored (the stream still ends well-formed). */
export function reportError(hook: ((error: unknown) => void) | undefined, error: unknown): void {
  if (hook === undefined) return;
  try {
    hook(error);
  } catch {
    // The hook's own failure is not the stream's.
  }
}
