import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.ToolNotFoundError');

/** A call named a tool that is not registered, not offered this turn, or hidden from the model. */
export class ToolNotFoundError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  /** Names the model could have called instead (never hidden tools). */
  readonly availableTools: readonly string[];
  constructor(options: { toolName: string; availableTools?: readonly string[]; cause?: unknown }) {
    super('ToolNotFoundError', `unknown tool \`${options.toolName}\``, options);
    this.toolName = options.toolName;
    this.availableTools = options.availableTools ?? [];
  }

  static override isInstance(value: unknown): value is ToolNotFoundError {
    return isMarked(value, marker);
  }
}
