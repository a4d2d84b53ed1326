import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ListenerError');

function detailOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  try {
    return String(cause);
  } catch {
    return 'a value that cannot be printed';
  }
}

/**
 * A host callback of the run threw: the `onEvent` listener (it still gets every event, and the run
 * fails at its next safe point with its first throw, so no step is left half done; when the run
 * already fails with another error, this error is emitted as a process warning instead) or
 * `onCheckpoint` (the run fails before the batch it was checkpointing runs, so nothing runs without
 * its checkpoint).
 */
export class ListenerError extends TinyError {
  readonly [marker] = true;
  /** Which callback threw. */
  readonly listener: 'onEvent' | 'onCheckpoint';
  /** For `onEvent`: the type of the event it threw on. */
  readonly eventType: string | undefined;

  constructor(options: { listener: 'onEvent' | 'onCheckpoint'; eventType?: string | undefined; cause: unknown }) {
    const where = options.eventType === undefined ? '' : ` on a \`${options.eventType}\` event`;
    super('ListenerError', `the \`${options.listener}\` listener threw${where}: ${detailOf(options.cause)}`, options);
    this.listener = options.listener;
    this.eventType = options.eventType;
  }

  static override isInstance(value: unknown): value is ListenerError {
    return isMarked(value, marker);
  }
}
