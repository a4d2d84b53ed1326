import type { AgentEvent, AgentRun } from '@tiny/harness';
import type { TraceRecording } from '../record/record-events.js';

/** What the viewer reads: a finished run, its bare events, or a timed recording. */
export type TraceInput = AgentRun | readonly AgentEvent[] | TraceRecording;

/** The facts the viewer uses from its input. @internal */
export interface NormalizedInput {
  readonly events: readonly AgentEvent[];
  /** Arrival time of each event (epoch ms) when known, index for index. */
  readonly times: readonly (number | undefined)[] | undefined;
  readonly run: Pick<AgentRun, 'runId' | 'outcome' | 'text'> | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isEvent = (value: unknown): value is AgentEvent => isObject(value) && typeof value.type === 'string';
const isRecorded = (value: unknown): boolean => isObject(value) && typeof value.at === 'number' && isEvent(value.event);

/** @internal */
export function normalizeInput(input: TraceInput, timestamps?: readonly number[]): NormalizedInput {
  if (Array.isArray(input)) {
    return { events: input as readonly AgentEvent[], times: timestamps, run: undefined };
  }
  const value = input as AgentRun | TraceRecording;
  if ('version' in value || (value.events.length > 0 && isRecorded(value.events[0]))) {
    const recorded = (value as TraceRecording).events;
    return { events: recorded.map((entry) => entry.event), times: recorded.map((entry) => entry.at), run: undefined };
  }
  const run = value as AgentRun;
  return { events: run.events, times: timestamps, run: { runId: run.runId, outcome: run.outcome, text: run.text } };
}

/**
 * Reads parsed JSON as a trace input: an `AgentRun` (`JSON.stringify(run)`), a recording from
 * `recordEvents`, or an array of events or of `{ at, event }` entries.
 * @throws {TypeError} when the value is none of these.
 * @internal
 */
export function parseTraceInput(value: unknown): TraceInput {
  const entries = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.events)
      ? value.events
      : undefined;
  if (entries === undefined) {
    throw new TypeError('expected an AgentRun, a recording ({ events: [{ at, event }] }) or an array of events');
  }
  if (entries.every(isRecorded)) return { version: 1, events: entries } as TraceRecording;
  const bad = entries.findIndex((entry) => !isEvent(entry));
  if (bad >= 0) throw new TypeError(`events[${bad}] is not a harness event (no "type")`);
  if (Array.isArray(value)) return entries as AgentEvent[];
  const run = value as Record<string, unknown>;
  return {
    runId: typeof run.runId === 'string' ? run.runId : 'unknown',
    outcome: run.outcome,
    text: typeof run.text === 'string' ? run.text : '',
    events: entries,
  } as unknown as AgentRun;
}
