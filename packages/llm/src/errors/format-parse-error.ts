import { TinyError } from '@tiny/tools';
import type { ToolFormat } from '../spec/tool-format.js';

const marker = Symbol.for('tiny.error.FormatParseError');

/**
 * What went wrong while reading a call written in a tool format.
 * - `syntax`: the text is not well formed (a stray character, a missing `(` or `>`).
 * - `unknown_tool`: the call names another tool (a wrong root element or function name).
 * - `unknown_field`: an XML element the schema does not declare.
 * - `duplicate_field`: the same XML element twice in one object.
 * - `unterminated`: an unclosed tag, string, CDATA section or argument list.
 * - `mismatched_tag`: a closing tag that does not match the open element.
 * - `type_mismatch`: XML text that cannot be read as the type the schema asks for.
 * - `too_many_values`: more positional values than the format lists parameters.
 * - `trailing_text`: text after the call.
 * - `too_deep`: nesting past the parser's depth limit.
 */
export type FormatParseErrorKind =
  | 'syntax'
  | 'unknown_tool'
  | 'unknown_field'
  | 'duplicate_field'
  | 'unterminated'
  | 'mismatched_tag'
  | 'type_mismatch'
  | 'too_many_values'
  | 'trailing_text'
  | 'too_deep';

/**
 * A call written in a tool format (`json`, `xml`, `ptype`) could not be read. The reason names
 * tools, fields and positions only; it never quotes the model's values.
 */
export class FormatParseError extends TinyError {
  readonly [marker] = true;
  /** The format that was being read. */
  readonly format: ToolFormat['type'];
  /** The class of failure, for programs. */
  readonly kind: FormatParseErrorKind;
  /** A sentence saying what was wrong, for people and for the model. */
  readonly reason: string;
  /** Index in the parsed text (UTF-16 code units) where the problem was found, when known. */
  readonly offset: number | undefined;

  constructor(options: {
    format: ToolFormat['type'];
    kind: FormatParseErrorKind;
    reason: string;
    offset?: number | undefined;
    cause?: unknown;
  }) {
    const where = options.offset === undefined ? '' : ` (at offset ${options.offset})`;
    super('FormatParseError', `invalid ${options.format} tool call: ${options.reason}${where}`, options);
    this.format = options.format;
    this.kind = options.kind;
    this.reason = options.reason;
    this.offset = options.offset;
  }

  static override isInstance(value: unknown): value is FormatParseError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
