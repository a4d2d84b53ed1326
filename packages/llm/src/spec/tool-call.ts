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
  /**
   * Why this call cannot run as sent; `arguments` is then the raw string. Alone, it means the
   * argument text could not be decoded: the harness may repair the text (a bounded, visible
   * `repaired` recovery) and run the call. With {@link ToolCall.refused} it means the adapter
   * refused the call itself.
   */
  readonly invalid?: string | undefined;
  /**
   * The adapter refused this call for a reason other than unreadable argument text (two calls under
   * one id, a spliced or cut-off stream, a protocol violation): whatever `arguments` holds, even
   * perfectly valid JSON, the harness never repairs it and never runs it; it answers it with an
   * error result. Always set together with `invalid` (the reason), so a reader that knows only
   * `invalid` still treats the call as not runnable as is. Made by {@link createRefusedToolCall}.
   */
  readonly refused?: true | undefined;
}

/**
 * A call whose argument text could not be decoded: keeps the raw string and the reason. The
 * harness may repair the text into a runnable call; for a call that must never run, use
 * {@link createRefusedToolCall}.
 */
export function createInvalidToolCall(id: string, name: string, raw: string, reason: string): ToolCall {
  return { id, name, arguments: raw, invalid: reason };
}

/**
 * A call the adapter refused for a reason other than its argument text (the turn or stream that
 * carried it is broken): `invalid` holds the reason, `arguments` the raw string, and `refused` is
 * `true`. The harness answers it with an error result and never repairs or runs it.
 */
export function createRefusedToolCall(id: string, name: string, raw: string, reason: string): ToolCall {
  return { id, name, arguments: raw, invalid: reason, refused: true };
}

/** True when the adapter refused this call (see {@link ToolCall.refused}): it must never run. */
export function isRefusedToolCall(
  call: ToolCall,
): call is ToolCall & { arguments: string; invalid: string; refused: true } {
  return call.refused === true;
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
