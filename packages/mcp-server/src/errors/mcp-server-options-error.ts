import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.McpServerOptionsError');

/** `serveToolsOverMcp` (or a method of `McpToolServer`) was given options it cannot serve safely. */
export class McpServerOptionsError extends TinyError {
  readonly [marker] = true;
  /** The option at fault, e.g. `http.token`. */
  readonly option: string;

  constructor(options: { option: string; reason: string; cause?: unknown }) {
    super('McpServerOptionsError', `invalid MCP server option \`${options.option}\`: ${options.reason}`, options);
    this.option = options.option;
  }

  static override isInstance(value: unknown): value is McpServerOptionsError {
    return isMarked(value, marker);
  }
}
