import type { Message } from '@tiny/llm';
import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.RunCancelledError');

/** The run's abort signal fired. `reason` is the signal's reason; `messages` the transcript so far. */
export class RunCancelledError extends TinyError {
  readonly [marker] = true;
  readonly reason: unknown;
  readonly messages: readonly Message[];

  constructor(options: { reason: unknown; messages: readonly Message[] }) {
    super('RunCancelledError', 'run cancelled', { cause: options.reason });
    this.reason = options.reason;
    // A frozen copy: whoever catches the error cannot edit the run's history through it.
    this.messages = Object.freeze([...options.messages]);
  }

  static override isInstance(value: unknown): value is RunCancelledError {
    return isMarked(value, marker);
  }
}
