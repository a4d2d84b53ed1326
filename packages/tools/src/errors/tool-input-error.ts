import { formatValidationIssues, type ValidationIssue } from '../validation/validation-issue.js';
import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ToolInputError');

/**
 * The model called a tool with arguments that do not match its declared schema.
 * Message: ``invalid arguments for tool `x`: /city must be string; /extra is not allowed``.
 */
export class ToolInputError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly issues: readonly ValidationIssue[];

  constructor(options: { toolName: string; issues: readonly ValidationIssue[]; cause?: unknown }) {
    super(
      'ToolInputError',
      `invalid arguments for tool \`${options.toolName}\`: ${formatValidationIssues(options.issues)}`,
      options,
    );
    this.toolName = options.toolName;
    this.issues = options.issues;
  }

  static override isInstance(value: unknown): value is ToolInputError {
    return isMarked(value, marker);
  }
}
