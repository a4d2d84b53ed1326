import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.CodeSandboxError');

/**
 * The code-mode sandbox itself failed while running a program (its thread ended unexpectedly, or
 * the WebAssembly glue faulted). Not the program's doing, and never something it could catch.
 * `logs` holds what it printed before.
 */
export class CodeSandboxError extends TinyError {
  readonly [marker] = true;
  readonly detail: string;
  readonly logs: readonly string[];

  constructor(options: { detail: string; logs?: readonly string[]; cause?: unknown }) {
    super('CodeSandboxError', `program stopped by a sandbox fault: ${options.detail}`, options);
    this.detail = options.detail;
    this.logs = options.logs ?? [];
  }

  static override isInstance(value: unknown): value is CodeSandboxError {
    return isMarked(value, marker);
  }
}
