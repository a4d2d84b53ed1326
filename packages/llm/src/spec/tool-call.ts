import type { JsonValue } from '@tiny/tools';

/**
 * A call the model asked for, in the one typed shape the harness executes.
 * `arguments` is the decoded JSON value. When a provider could not decode the arguments,
 * `invalid` holds the reason and `arguments` the raw string, byte for byte.
 * Parsers never mint ids; adapters and the harness do.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
  readonly invalid?: string | undefined;
}

/** A call whose arguments could not be decoded: keeps the raw string and the reason. */
export function createInvalidToolCall(id: string, name: string, raw: string, reason: string): ToolCall {
  return { id, name, arguments: raw, invalid: reason };
}

/** True when the provider could not decode this call's arguments. */
export function isInvalidToolCall(call: ToolCall): call is ToolCall & { arguments: string; invalid: string } {
  return call.invalid !== undefined;
}

/**
 * A tool call on a model response. Beyond {@link ToolCall}: `rawArguments` is the argument text
 * exactly as the provider sent it (kept so a replay is byte-exact; absent when the provider sent
 * an object), and `extraContent` is provider data that must be sent back with the call (Gemini
 * thought signatures). A call whose arguments could not be decoded has `invalid` set and the raw
 * string in `arguments`; it never fails the model call.
 */
export interface LanguageModelV1ToolCall extends ToolCall {
  readonly rawArguments?: string | undefined;
  readonly extraContent?: JsonValue | undefined;
}
