/**
 * A run-trace viewer for `@tiny/harness`: one self-contained HTML file per run, and the tiny-trace CLI.
 * @module @tiny/trace
 */
export type { TraceInput } from './model/trace-input.js';
export {
  type EventRecorder,
  type RecordEventsOptions,
  type RecordedEvent,
  recordEvents,
  type TraceRecording,
} from './record/record-events.js';
export { type RenderTraceOptions, renderTraceHtml } from './render/render-trace-html.js';
