import type { AgentEvent } from '@tiny/harness';
import type { TimingSource } from './trace-view.js';

/**
 * A time for every event: the recorded ones when given; else tool timestamps carried forward
 * (`tool_started` at its call's `startedAtMs`, completions at their end), never going back; else
 * the event's index.
 * @internal
 */
export function resolveTimes(
  events: readonly AgentEvent[],
  given: readonly (number | undefined)[] | undefined,
): { readonly times: number[]; readonly timing: TimingSource } {
  if (given?.some((time) => typeof time === 'number')) {
    return { times: carryForward(events.map((_, index) => given[index])), timing: 'recorded' };
  }
  const startOf = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'tool_completed' || event.type === 'tool_failed') startOf.set(event.callId, event.startedAtMs);
  }
  const anchors = events.map((event): number | undefined => {
    if (event.type === 'tool_started') return startOf.get(event.callId);
    if (event.type === 'tool_completed' || event.type === 'tool_failed') return event.startedAtMs + event.durationMs;
    return undefined;
  });
  if (anchors.every((anchor) => anchor === undefined))
    return { times: events.map((_, index) => index), timing: 'none' };
  return { times: carryForward(anchors), timing: 'tools' };
}

function carryForward(values: readonly (number | undefined)[]): number[] {
  let previous = values.find((value) => typeof value === 'number') ?? 0;
  return values.map((value) => {
    previous = Math.max(previous, typeof value === 'number' ? value : previous);
    return previous;
  });
}
