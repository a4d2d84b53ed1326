import type { LanguageModelV1ToolCall } from '@tiny/llm';
import { decodeToolArguments } from '@tiny/provider-utils';

/** Where a call was read: a whole `response` body or a `stream`; it opens the reason of an invalid call. */
export type ToolCallContext = 'response' | 'stream';

/** A call as read off the wire, before its arguments are decoded. */
export interface WireCallInput {
  readonly id: string;
  readonly name: string;
  /** The wire `function.arguments`: usually a string, sometimes an object, sometimes absent. */
  readonly arguments: unknown;
  readonly extraContent?: LanguageModelV1ToolCall['extraContent'];
}

/**
 * Decodes one wire tool call with the wire leniency every OpenAI-compatible server needs (P1),
 * through the shared `decodeToolArguments` of `@tiny/provider-utils`:
 * - `arguments` absent or `null`, or a string of only whitespace: no arguments (`{}`);
 * - an object (some servers send one instead of a string): taken as is, no `rawArguments`;
 * - a string holding a JSON object: decoded, and a JSON string holding a JSON object (double
 *   encoding) is unwrapped once;
 * - anything else is repaired with `recoverToolArguments` (chat-template markers, a duplicated
 *   object, then the conservative `recoverRelaxedObject` ladder);
 * - what no repair recovers becomes an invalid call: `arguments` and `rawArguments` hold the raw
 *   text and `invalid` the reason ``<context> contained invalid JSON arguments for tool call
 *   `<id>` (`<name>`): <detail>; raw arguments: <raw>``. Never throws: a bad call never fails the
 *   model call.
 * - arguments (or `extra_content`) nesting deeper than `MAX_WIRE_DEPTH` levels: an invalid call
 *   (its `extra_content` dropped), never serialised, so no recursive helper meets them;
 * - with `refuse` (a stream that broke its protocol), a refused call (`createRefusedToolCall`) with
 *   that reason, whatever the arguments hold: the harness never repairs or runs it;
 * - with `strict` (a stream cut off after its finish reason), no repair is tried: cut-off
 *   arguments become a refused call, never a runnable prefix.
 * @internal
 */
export function decodeToolCall(
  input: WireCallInput,
  context: ToolCallContext,
  strict = false,
  refuse?: string,
): LanguageModelV1ToolCall {
  return decodeToolArguments(input, {
    context,
    strict,
    refuse,
    strictNote: ' (the stream was cut off after its finish reason; not repaired)',
  });
}
