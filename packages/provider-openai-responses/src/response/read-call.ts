import type { LanguageModelV1ToolCall } from '@tiny/llm';
import { asString, decodeToolArguments } from '@tiny/provider-utils';

/**
 * Decodes a `function_call` item into a call, by its `call_id`, with the shared lenient decoder
 * (relaxed JSON repaired, empty text is `{}`). A `refuse` reason, or an item whose own `status` is
 * there and not `completed` (cut off), or one without a `call_id` (a result could not answer it), makes the call refused (`createRefusedToolCall`) with its raw text: it never runs, never repaired.
 * Never throws.
 * @internal
 */
export function readCall(
  item: Readonly<Record<string, unknown>>,
  context: 'response' | 'stream',
  refuse?: string | undefined,
  argumentsText?: string | undefined,
): LanguageModelV1ToolCall {
  const callId = asString(item.call_id);
  const id = callId ?? asString(item.id) ?? '';
  const name = asString(item.name) ?? '';
  const status = asString(item.status);
  const cut =
    status === undefined || status === 'completed'
      ? undefined
      : `the call item ended with status ${status}, not completed`;
  return decodeToolArguments(
    { id, name, arguments: asString(item.arguments) ?? argumentsText ?? item.arguments },
    {
      context,
      refuse: refuse ?? cut ?? (callId === undefined || callId === '' ? 'the call item has no call_id' : undefined),
    },
  );
}
