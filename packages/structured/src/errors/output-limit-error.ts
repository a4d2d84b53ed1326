import type { AgentRun } from '@tiny/harness';
import { isMarked, TinyError } from '@tiny/tools';
import type { StructuredAttempt } from '../run/structured-attempt.js';

const marker = Symbol.for('tiny.error.OutputLimitError');

/**
 * The model stopped at its output-token limit (`finishReason: 'length'`) before writing any
 * structured output. Retrying with the same settings would hit the limit again, so this is not
 * retried: raise `maxTokens` (or cap reasoning) and run again.
 */
export class OutputLimitError extends TinyError {
  readonly [marker] = true;
  readonly schemaName: string;
  /** Every attempt, the last being the one cut off. */
  readonly attempts: readonly StructuredAttempt[];
  readonly run: AgentRun | undefined;

  constructor(options: {
    schemaName: string;
    attempts: readonly StructuredAttempt[];
    run?: AgentRun | undefined;
    cause?: unknown;
  }) {
    super(
      'OutputLimitError',
      `the model hit its output limit before writing the \`${options.schemaName}\` output (finish_reason=length); raise maxTokens or cap reasoning`,
      options,
    );
    this.schemaName = options.schemaName;
    this.attempts = options.attempts;
    this.run = options.run;
  }

  static override isInstance(value: unknown): value is OutputLimitError {
    return isMarked(value, marker);
  }
}
