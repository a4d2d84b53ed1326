import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.CodeProgramError');

/** Why a code-mode program failed without hitting a limit. */
export type CodeProgramFailure = 'syntax' | 'threw' | 'not_json' | 'never_settled';

/**
 * A code-mode program could not be parsed, threw (or rejected), returned something that is not
 * JSON, or waited on a promise nothing could settle. `detail` is the sandbox's message (the
 * program's own error text); `logs` holds what it printed before.
 */
export class CodeProgramError extends TinyError {
  readonly [marker] = true;
  readonly failure: CodeProgramFailure;
  readonly detail: string;
  readonly logs: readonly string[];

  constructor(options: { failure: CodeProgramFailure; detail: string; logs?: readonly string[]; cause?: unknown }) {
    const what = {
      syntax: 'program does not parse',
      threw: 'program threw',
      not_json: 'program result is not JSON',
      never_settled: 'program never finished',
    };
    super('CodeProgramError', `${what[options.failure]}: ${options.detail}`, options);
    this.failure = options.failure;
    this.detail = options.detail;
    this.logs = options.logs ?? [];
  }

  static override isInstance(value: unknown): value is CodeProgramError {
    return isMarked(value, marker);
  }
}
