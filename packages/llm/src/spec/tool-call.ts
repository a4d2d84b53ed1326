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
