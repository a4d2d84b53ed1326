import { ListenerError } from '../errors/listener-error.js';
import type { AgentEvent } from './agent-event.js';

/** A nested call whose `tool_started` was emitted and its outcome event not yet. */
interface OpenCall {
  readonly toolName: string;
  readonly parentCallId: string;
  readonly startedAtMs: number;
}

/** The `tool_failed` error of a nested call still open when the run ended. */
const RUN_ENDED = 'the run ended before this nested call settled';

/** Receives events as they happen. */
export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Where a run's events go. Emit sites check {@link EventSink.active} before building an event,
 * so a run with no listener and no recording allocates nothing for events.
 *
 * A listener that throws never interrupts the step that emitted the event, nor the record, nor any
 * listener: every listener, the one that threw included, still gets every event through the final
 * one (a listener that fails once would otherwise see calls start and never end). The first throw
 * is kept and reported once: the loop fails the run with it at its next safe point
 * ({@link EventSink.throwIfFailed}), or, when the run already fails with another error or the
 * throw came with its final event, {@link EventSink.reportUnthrown} emits it as a process warning.
 *
 * The run's final event (`run_completed` or `run_failed`) ends the sink, as does {@link EventSink.end}
 * when the run returns or throws: nothing is delivered or recorded after it (a late outcome reaches
 * only the code that awaits it). Before it, every nested call still open gets `tool_failed`, so each
 * started call has exactly one outcome event in the record.
 * @internal
 */
export class EventSink {
  readonly recorded: AgentEvent[] | undefined;
  readonly active: boolean;
  private readonly listeners: readonly AgentEventListener[];
  /** The first listener failure: later throws are the same failure told again, not reported twice. */
  failure: ListenerError | undefined;
  /** Whether the run ended: its final event was emitted, or it returned or threw. */
  ended = false;
  /** Nested calls started whose outcome event is not emitted yet (see {@link opened}). */
  private open: Map<string, OpenCall> | undefined;

  constructor(listeners: readonly AgentEventListener[], record: boolean) {
    this.listeners = [...listeners];
    this.recorded = record ? [] : undefined;
    this.active = record || listeners.length > 0;
  }

  emit(event: AgentEvent): void {
    if (this.ended) return;
    if (event.type === 'run_completed' || event.type === 'run_failed') {
      if (this.open !== undefined && this.open.size > 0) this.closeOpen();
      this.ended = true;
    }
    // Frozen before anyone sees it, so no listener can rewrite what the record says (its nested
    // values are already frozen copies made where the event was built).
    Object.freeze(event);
    this.recorded?.push(event);
    const listeners = this.listeners;
    for (let index = 0; index < listeners.length; index += 1) {
      try {
        (listeners[index] as AgentEventListener)(event);
      } catch (error) {
        this.failure ??= new ListenerError({ listener: 'onEvent', eventType: event.type, cause: error });
      }
    }
  }

  /**
   * A nested call's `tool_started` was emitted: until {@link settled}, it is open. Its outcome
   * event is emitted when its own awaits unwind, which may come after the run ended (its calling
   * call ended and the run finished in fewer steps): the final event closes it first.
   */
  opened(callId: string, toolName: string, parentCallId: string): void {
    this.open ??= new Map();
    this.open.set(callId, { toolName, parentCallId, startedAtMs: Date.now() });
  }

  /** A nested call's outcome event is about to be emitted (or it never started). */
  settled(callId: string): void {
    this.open?.delete(callId);
  }

  /** Every nested call still open gets its one outcome, `tool_failed`, before the run's final event. */
  private closeOpen(): void {
    const open = this.open as Map<string, OpenCall>;
    this.open = undefined;
    const now = Date.now();
    for (const [callId, call] of open)
      this.emit({
        type: 'tool_failed',
        callId,
        toolName: call.toolName,
        parentCallId: call.parentCallId,
        startedAtMs: call.startedAtMs,
        durationMs: now - call.startedAtMs,
        error: RUN_ENDED,
      });
  }

  /** The run returned or threw: later events are dropped (see the class notes). */
  end(): void {
    this.ended = true;
  }

  /**
   * The run ends with `error`, or returns (`undefined`) after its `run_completed`: a listener
   * failure it does not carry (the run was already failing with another error, or the listener
   * threw on the run's final event, which decided how the run ended) is emitted as a process
   * warning (`process.emitWarning`, named `ListenerError`), so it is never lost.
   */
  reportUnthrown(error: unknown): void {
    const failure = this.failure;
    if (failure === undefined || failure === error) return;
    this.failure = undefined;
    if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') process.emitWarning(failure);
  }

  /** Throws the first listener failure, if any. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
