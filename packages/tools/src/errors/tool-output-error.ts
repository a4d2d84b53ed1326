import type { ValidationIssue } from '../validation/validation-issue.js';
import { formatValidationIssues } from '../validation/validation-issue.js';
import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ToolOutputError');

/**
 * A tool returned a structured result that does not match its declared `outputSchema`. This is the
 * tool's bug, not the model's: the harness treats it as a tool error (fatal under the default
 * `toolErrors: { kind: 'fail' }`; `return_error` answers the model with the message instead).
 */
export class ToolOutputError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly issues: readonly ValidationIssue[];

  constructor(options: { toolName: string; issues: readonly ValidationIssue[]; cause?: unknown }) {
    super(
      'ToolOutputError',
      `tool \`${options.toolName}\` returned output that does not match its output schema: ${formatValidationIssues(options.issues)}`,
      options,
    );
    this.toolName = options.toolName;
    this.issues = options.issues;
  }

  static override isInstance(value: unknown): value is ToolOutputError {
    return isMarked(value, marker);
  }
}
