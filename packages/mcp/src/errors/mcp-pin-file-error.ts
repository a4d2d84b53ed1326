import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.McpPinFileError');

/** A pin file could not be read: not JSON, another version, or a malformed entry (named in `reason`). */
export class McpPinFileError extends TinyError {
  readonly [marker] = true;
  readonly path: string;
  readonly reason: string;

  constructor(options: { path: string; reason: string; cause?: unknown }) {
    super('McpPinFileError', `MCP pin file ${options.path}: ${options.reason}`, options);
    this.path = options.path;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is McpPinFileError {
    return isMarked(value, marker);
  }
}
