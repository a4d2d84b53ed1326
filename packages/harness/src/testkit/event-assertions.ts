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
 * each `tool_started` has exactly one terminal event (`tool_completed` or `tool_failed`) after it,
 * no terminal event lacks a start, and no call id starts twice.
 */
export function toolEventViolations(events: readonly AgentEvent[]): string[] {
  const problems: string[] = [];
  const open = new Map<string, number>();
  const seen = new Set<string>();
  for (const event of events) {
    if (event.type === 'tool_started') {
      if (seen.has(event.callId)) problems.push(`call ${event.callId} started twice`);
      seen.add(event.callId);
      open.set(event.callId, 1);
    } else if (event.type === 'tool_completed' || event.type === 'tool_failed') {
      if (!open.has(event.callId)) problems.push(`call ${event.callId} ended without a start (or ended twice)`);
      open.delete(event.callId);
    }
  }
  for (const id of open.keys()) problems.push(`call ${id} started but never ended`);
  return problems;
}
