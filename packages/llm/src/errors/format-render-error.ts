import { TinyError } from '@tiny/tools';
import type { ToolFormat } from '../spec/tool-format.js';

const marker = Symbol.for('tiny.error.FormatRenderError');

/**
 * A call or declaration cannot be written in a tool format without changing its meaning: an XML
 * element name that is not a valid name, or an argument that a `ptype` format lists no position for.
 */
export class FormatRenderError extends TinyError {
  readonly [marker] = true;
  /** The format that was being written. */
  readonly format: ToolFormat['type'];
  /** A sentence saying what cannot be written. */
  readonly reason: string;

  constructor(options: { format: ToolFormat['type']; reason: string; cause?: unknown }) {
    super('FormatRenderError', `cannot render ${options.format} tool call: ${options.reason}`, options);
    this.format = options.format;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is FormatRenderError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
