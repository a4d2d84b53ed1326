import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.InvalidRankingIntentError');

/** A tool ranker was asked to rank for an intent that is empty or only whitespace. */
export class InvalidRankingIntentError extends TinyError {
  readonly [marker] = true;
  /** The intent as received. */
  readonly intent: string;
  /** The `kind()` of the ranker that refused the intent. */
  readonly rankerKind: string;
  constructor(options: { intent: string; rankerKind: string; cause?: unknown }) {
    super('InvalidRankingIntentError', `${options.rankerKind} ranker needs a non-empty intent`, options);
    this.intent = options.intent;
    this.rankerKind = options.rankerKind;
  }

  static override isInstance(value: unknown): value is InvalidRankingIntentError {
    return isMarked(value, marker);
  }
}
