import type { AgentEvent, AgentEventListener } from '@tiny/harness';

/** One event and when the recorder received it (epoch milliseconds). */
export interface RecordedEvent {
  readonly at: number;
  readonly event: AgentEvent;
}

/** A timed event stream: what `recordEvents` produces and `renderTraceHtml` / `tiny-trace` read. */
export interface TraceRecording {
  readonly version: 1;
  readonly events: readonly RecordedEvent[];
}

/** Options for {@link recordEvents}. */
export interface RecordEventsOptions {
  /** Also receives every event, after it is recorded (for example a console logger). */
  readonly forward?: AgentEventListener | undefined;
  /** Clock in epoch milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** What {@link recordEvents} returns. */
export interface EventRecorder {
  /** Pass as `onEvent` to `invoke`, `stream` or `resumeDeferred`. */
  readonly onEvent: AgentEventListener;
  /** The recording so far (the same object grows); `JSON.stringify` it to save a run for `tiny-trace`. */
  readonly recording: TraceRecording;
}

/**
 * Records a run's events with the time each one arrived, so the trace viewer can show how long
 * model calls and turns took (harness events carry times only for tool calls). Events are kept by
 * reference, as the harness emits them; they hold tool I/O only when the run captured it.
 *
 * @example
 * const recorder = recordEvents();
 * await harness.invoke(context, messages, { onEvent: recorder.onEvent, policy: { captureToolIo: true } });
 * writeFileSync('trace.html', renderTraceHtml(recorder.recording));
 */
export function recordEvents(options: RecordEventsOptions = {}): EventRecorder {
  const now = options.now ?? Date.now;
  const events: RecordedEvent[] = [];
  const recording: TraceRecording = { version: 1, events };
  return {
    recording,
    onEvent: (event) => {
      events.push({ at: now(), event });
      options.forward?.(event);
    },
  };
}
