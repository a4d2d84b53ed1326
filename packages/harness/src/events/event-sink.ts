import type { AgentEvent } from './agent-event.js';

/** Receives events as they happen. */
export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Where a run's events go. Emit sites check {@link EventSink.active} before building an event,
 * so a run with no listener and no recording allocates nothing for events.
 * @internal
 */
export class EventSink {
  readonly recorded: AgentEvent[] | undefined;
  readonly active: boolean;
  private readonly listeners: readonly AgentEventListener[];

  constructor(listeners: readonly AgentEventListener[], record: boolean) {
    this.listeners = listeners;
    this.recorded = record ? [] : undefined;
    this.active = record || listeners.length > 0;
  }

  emit(event: AgentEvent): void {
    this.recorded?.push(event);
    for (const listener of this.listeners) listener(event);
  }
}
