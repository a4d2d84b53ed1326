import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.CodeModeLimitError');

/** Which sandbox limit a program ran into. */
export type CodeModeLimitKind = 'cpu_time' | 'memory' | 'stack' | 'nested_calls' | 'program_size';

const units: Readonly<Record<CodeModeLimitKind, string>> = {
  cpu_time: 'ms of CPU time',
  memory: 'bytes of memory',
  stack: 'bytes of stack',
  nested_calls: 'nested tool calls',
  program_size: 'characters of program text',
};

/**
 * A code-mode program ran into one of its sandbox limits (see `CodeModeLimits`) and was stopped.
 * `logs` holds what it printed before.
 */
export class CodeModeLimitError extends TinyError {
  readonly [marker] = true;
  readonly limitKind: CodeModeLimitKind;
  readonly limit: number;
  readonly logs: readonly string[];

  constructor(options: { limitKind: CodeModeLimitKind; limit: number; logs?: readonly string[]; cause?: unknown }) {
    super(
      'CodeModeLimitError',
      `program stopped: limit of ${options.limit} ${units[options.limitKind]} reached`,
      options,
    );
    this.limitKind = options.limitKind;
    this.limit = options.limit;
    this.logs = options.logs ?? [];
  }

  static override isInstance(value: unknown): value is CodeModeLimitError {
    return isMarked(value, marker);
  }
}
