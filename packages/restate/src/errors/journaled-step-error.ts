import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.JournaledStepError');

/**
 * A model or tool step that threw, replayed from the Restate journal after a restart (the original
 * error object lived in the worker that died). The harness fails the run with it, as with the
 * original error; `step` is the journal entry (`model:<n>`, `tool:<callId>`).
 */
export class JournaledStepError extends TinyError {
  readonly [marker] = true;
  readonly step: string;
  readonly detail: string;

  constructor(options: { step: string; detail: string }) {
    super('JournaledStepError', `${options.step} failed (replayed from the journal): ${options.detail}`);
    this.step = options.step;
    this.detail = options.detail;
  }

  static override isInstance(value: unknown): value is JournaledStepError {
    return isMarked(value, marker);
  }
}
