import { FormatParseError, type FormatParseErrorKind } from '../errors/format-parse-error.js';
import type { ToolFormat } from '../spec/tool-format.js';

/** A call read from a tool format: the tool name and the decoded arguments object. */
export interface FormatCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * The outcome of reading a call written in a tool format. Parsers return a failure instead of
 * guessing, and never throw. The arguments are typed but not validated: validate them against
 * the tool's declared schema next.
 */
export type FormatParseResult =
  | { readonly ok: true; readonly call: FormatCall }
  | { readonly ok: false; readonly error: FormatParseError };

/** @internal */
export function formatFailure(
  format: ToolFormat['type'],
  kind: FormatParseErrorKind,
  reason: string,
  offset?: number,
): FormatParseResult {
  return { ok: false, error: new FormatParseError({ format, kind, reason, offset }) };
}

/** Shortens a name taken from model text before it goes into an error reason. @internal */
export function clipName(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}
