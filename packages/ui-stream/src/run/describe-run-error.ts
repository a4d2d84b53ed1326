import { ModelCallError, RunCancelledError } from '@tiny/harness';

/**
 * The text a stream shows for a run's error: the error's name, the `ModelCallError.kind` in
 * parentheses when it is one (WIRE-3), then the message the run's `run_failed` event carried (the
 * harness's redacted text), or the error's own message when there was no such event.
 */
export function describeRunError(error: unknown, eventText: string | undefined): string {
  const name = error instanceof Error ? error.name : 'Error';
  const kind = ModelCallError.isInstance(error) ? ` (${error.kind})` : '';
  const message = eventText ?? (error instanceof Error ? error.message : String(error));
  return `${name}${kind}: ${message}`;
}

/** Whether `error` is a run cancellation (the host's signal fired): the stream reports an abort, not an error. */
export function isCancellation(error: unknown): boolean {
  return RunCancelledError.isInstance(error);
}
