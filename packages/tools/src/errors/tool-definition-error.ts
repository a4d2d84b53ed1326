import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ToolDefinitionError');

/**
 * A tool definition is unusable: a bad name, a schema the validator cannot compile, or
 * injected arguments that do not fit the schema. Raised when the tool is defined, not on first call.
 */
export class ToolDefinitionError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly reason: string;
  constructor(options: { toolName: string; reason: string; cause?: unknown }) {
    super('ToolDefinitionError', `invalid tool definition \`${options.toolName}\`: ${options.reason}`, options);
    this.toolName = options.toolName;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ToolDefinitionError {
    return isMarked(value, marker);
  }
}
