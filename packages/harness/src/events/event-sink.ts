import { ListenerError } from '../errors/listener-error.js';
import type { AgentEvent } from './agent-event.js';

/** Receives events as they happen. */
export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Where a run's events go. Emit sites check {@link EventSink.active} before building an event,
 * so a run with no listener and no recording allocates nothing for events.
 *
 * A listener that throws never interrupts the step that emitted the event: the error is kept, the
 * listener is detached (it gets no further events), and the loop fails the run with the kept
 * `ListenerError` at its next safe point ({@link EventSink.throwIfFailed}).
 * @internal
 */
export class EventSink {
  readonly recorded: AgentEvent[] | undefined;
  readonly active: boolean;
  private readonly listeners: (AgentEventListener | undefined)[];
  /** The first listener failure, until the run reports it. */
  failure: ListenerError | undefined;

  constructor(listeners: readonly AgentEventListener[], record: boolean) {
    this.listeners = [...listeners];
    this.recorded = record ? [] : undefined;
    this.active = record || listeners.length > 0;
  }

  emit(event: AgentEvent): void {
    this.recorded?.push(event);
    const listeners = this.listeners;
    for (let index = 0; index < listeners.length; index += 1) {
      const listener = listeners[index];
      if (listener === undefined) continue;
      try {
        listener(event);
      } catch (error) {
        this.listeners[index] = undefined;
        this.failure ??= new ListenerError({ listener: 'onEvent', eventType: event.type, cause: error });
      }
    }
  }

  /** Throws the first listener failure, if any. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
