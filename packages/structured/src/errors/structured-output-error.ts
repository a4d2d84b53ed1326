import type { AgentRun } from '@tiny/harness';
import { isMarked, TinyError } from '@tiny/tools';
import type { StructuredAttempt } from '../run/structured-attempt.js';

const marker = Symbol.for('tiny.error.StructuredOutputError');

/**
 * No valid structured output was obtained: every attempt failed and the retry budget is spent, the
 * error policy is `returnError`, an output validator threw something other than `ModelRetry`, or
 * the run ended (for example on deferred calls) before any output was recorded.
 */
export class StructuredOutputError extends TinyError {
  readonly [marker] = true;
  /** The response schema's name. */
  readonly schemaName: string;
  /** Every failed attempt, oldest first, with its error kind, message and raw assistant message. */
  readonly attempts: readonly StructuredAttempt[];
  /** The run as it ended, when it ended normally (its transcript holds every attempt). */
  readonly run: AgentRun | undefined;

  constructor(options: {
    schemaName: string;
    attempts: readonly StructuredAttempt[];
    message?: string | undefined;
    run?: AgentRun | undefined;
    cause?: unknown;
  }) {
    const last = options.attempts[options.attempts.length - 1];
    const summary =
      options.message ??
      `no valid structured output for \`${options.schemaName}\` after ${options.attempts.length} attempt${options.attempts.length === 1 ? '' : 's'}${last ? `: ${last.error}` : ''}`;
    super('StructuredOutputError', summary, options);
    this.schemaName = options.schemaName;
    this.attempts = options.attempts;
    this.run = options.run;
  }

  static override isInstance(value: unknown): value is StructuredOutputError {
    return isMarked(value, marker);
  }
}
