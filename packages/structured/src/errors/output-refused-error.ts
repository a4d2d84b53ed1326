import type { AgentRun } from '@tiny/harness';
import { isMarked, TinyError } from '@tiny/tools';
import type { StructuredAttempt } from '../run/structured-attempt.js';

const marker = Symbol.for('tiny.error.OutputRefusedError');

/**
 * The model refused to produce the structured output (the provider reported a refusal, such as
 * OpenAI's `message.refusal` under structured outputs), so there is no value to parse or validate.
 * Not retried: the same request would be refused again. `refusal` is the model's own explanation.
 */
export class OutputRefusedError extends TinyError {
  readonly [marker] = true;
  readonly schemaName: string;
  /** The model's refusal, in its own words. */
  readonly refusal: string;
  /** Every attempt, the last being the refused one. */
  readonly attempts: readonly StructuredAttempt[];
  readonly run: AgentRun | undefined;

  constructor(options: {
    schemaName: string;
    refusal: string;
    attempts: readonly StructuredAttempt[];
    run?: AgentRun | undefined;
    cause?: unknown;
  }) {
    super(
      'OutputRefusedError',
      `the model refused to write the \`${options.schemaName}\` output: ${options.refusal}`,
      options,
    );
    this.schemaName = options.schemaName;
    this.refusal = options.refusal;
    this.attempts = options.attempts;
    this.run = options.run;
  }

  static override isInstance(value: unknown): value is OutputRefusedError {
    return isMarked(value, marker);
  }
}
