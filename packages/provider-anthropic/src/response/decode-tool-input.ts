import type { LanguageModelV1ToolCall } from '@tiny/llm';
import { decodeToolArguments } from '@tiny/provider-utils';

/** Where a call was read; it opens the reason of an invalid call. @internal */
export type ToolCallContext = 'response' | 'stream';

/**
 * Decodes a `tool_use` input with the shared lenient decoder (`decodeToolArguments` of
 * `@tiny/provider-utils`): an object as is; text (the streamed `input_json_delta` pieces, or a
 * string some local servers send) parsed, then repaired, with empty text meaning `{}`. A call cut
 * off by `max_tokens` (`truncated`) is always invalid, its raw text kept: a repaired prefix of
 * cut-off arguments must never run; a string `truncated` is the reason (a block the stream never
 * closed, a stream that broke the protocol). Never throws.
 * @internal
 */
export function decodeToolInput(
  id: string,
  name: string,
  input: unknown,
  context: ToolCallContext,
  truncated: boolean | string = false,
): LanguageModelV1ToolCall {
  const refuse =
    truncated === false
      ? undefined
      : typeof truncated === 'string'
        ? truncated
        : 'the output token limit (max_tokens) cut the call off';
  return decodeToolArguments({ id, name, arguments: input }, { context, refuse });
}
