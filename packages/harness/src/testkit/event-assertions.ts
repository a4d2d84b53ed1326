import type { AgentEvent, AgentEventOf, AgentEventType } from '../events/agent-event.js';

/** The events of one type, in order. */
export function eventsOfType<T extends AgentEventType>(events: readonly AgentEvent[], type: T): AgentEventOf<T>[] {
  return events.filter((event): event is AgentEventOf<T> => event.type === type);
}

/** The sequence of event types, for compact assertions. */
export function eventTypes(events: readonly AgentEvent[]): AgentEventType[] {
  return events.map((event) => event.type);
}

/**
 * Checks the event invariants every run must keep and returns the violations (empty when fine):
 * each `tool_started` has exactly one outcome event after it (`tool_completed`, `tool_failed`, or
 * `tool_deferred` for a call that asked to pause), before the run's final event (`run_completed` or
 * `run_failed`); no outcome event lacks a start (a `tool_deferred` may: a call paused before it
 * started), and no call id starts twice (but a paused call starts again once the host approves it,
 * in the same run or in the resumed one, so the events of a run and of its resume may be joined).
 */
export function toolEventViolations(events: readonly AgentEvent[]): string[] {
  const problems: string[] = [];
  /** Started, no outcome yet. */
  const open = new Set<string>();
  /** Started, and not paused since. */
  const started = new Set<string>();
  /** Given an outcome, and not started since. */
  const ended = new Set<string>();
  let final = false;
  for (const event of events) {
    if (event.type === 'run_started') {
      final = false;
      ended.clear();
    } else if (event.type === 'run_completed' || event.type === 'run_failed') {
      for (const id of open) problems.push(`call ${id} had no outcome before the run's final event`);
      open.clear();
      final = true;
    } else if (event.type === 'tool_started') {
      if (started.has(event.callId)) problems.push(`call ${event.callId} started twice`);
      started.add(event.callId);
      ended.delete(event.callId);
      open.add(event.callId);
    } else if (event.type === 'tool_completed' || event.type === 'tool_failed' || event.type === 'tool_deferred') {
      const id = event.callId;
      if (final) problems.push(`call ${id} ended after the run's final event`);
      else if (open.has(id) || (event.type === 'tool_deferred' && !ended.has(id))) {
        open.delete(id);
        ended.add(id);
        // A paused call starts again when the host approves it.
        if (event.type === 'tool_deferred') started.delete(id);
      } else problems.push(`call ${id} ended without a start (or ended twice)`);
    }
  }
  for (const id of open) problems.push(`call ${id} started but never ended`);
  return problems;
}
