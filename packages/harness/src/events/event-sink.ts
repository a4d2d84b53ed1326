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
 *
 * The run's final event (`run_completed` or `run_failed`) ends the sink, as does {@link EventSink.end}
 * when the run returns or throws: nothing is delivered or recorded after it (a late outcome reaches
 * only the code that awaits it).
 * @internal
 */
export class EventSink {
  readonly recorded: AgentEvent[] | undefined;
  readonly active: boolean;
  private readonly listeners: (AgentEventListener | undefined)[];
  /** The first listener failure, until the run reports it. */
  failure: ListenerError | undefined;
  /** Whether the run ended: its final event was emitted, or it returned or threw. */
  ended = false;

  constructor(listeners: readonly AgentEventListener[], record: boolean) {
    this.listeners = [...listeners];
    this.recorded = record ? [] : undefined;
    this.active = record || listeners.length > 0;
  }

  emit(event: AgentEvent): void {
    if (this.ended) return;
    if (event.type === 'run_completed' || event.type === 'run_failed') this.ended = true;
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

  /** The run returned or threw: later events are dropped (see the class notes). */
  end(): void {
    this.ended = true;
  }

  /** Throws the first listener failure, if any. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
