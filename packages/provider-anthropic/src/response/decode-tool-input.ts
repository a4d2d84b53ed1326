import { createInvalidToolCall, type LanguageModelV1ToolCall, recoverToolArguments } from '@tiny/llm';

/** Where a call was read; it opens the reason of an invalid call. @internal */
export type ToolCallContext = 'response' | 'stream';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(
  id: string,
  name: string,
  raw: string,
  context: ToolCallContext,
  detail: string,
): LanguageModelV1ToolCall {
  const reason = `${context} contained invalid JSON arguments for tool call \`${id}\` (\`${name}\`): ${detail}; raw arguments: ${raw}`;
  return { ...createInvalidToolCall(id, name, raw, reason), rawArguments: raw };
}

/**
 * Decodes a `tool_use` input: an object as is; text (the streamed `input_json_delta` pieces, or a
 * string some local servers send) parsed, then repaired with `recoverToolArguments`, with empty
 * text meaning `{}`. A call cut off by `max_tokens` (`truncated`) is always invalid, its raw text
 * kept: a repaired prefix of cut-off arguments must never run. Never throws.
 * @internal
 */
export function decodeToolInput(
  id: string,
  name: string,
  input: unknown,
  context: ToolCallContext,
  truncated = false,
): LanguageModelV1ToolCall {
  if (isObject(input) && !truncated) return { id, name, arguments: input };
  const raw = typeof input === 'string' ? input : input === undefined || input === null ? '' : JSON.stringify(input);
  if (truncated) return invalid(id, name, raw, context, 'the output token limit (max_tokens) cut the call off');
  if (raw.trim() === '') return { id, name, arguments: {}, rawArguments: raw };
  let detail = 'the arguments are not a JSON object';
  try {
    const value: unknown = JSON.parse(raw);
    if (isObject(value)) return { id, name, arguments: value, rawArguments: raw };
  } catch (error) {
    detail = error instanceof Error ? error.message : String(error);
  }
  const repaired = recoverToolArguments(raw);
  if (repaired !== undefined) return { id, name, arguments: repaired, rawArguments: raw };
  return invalid(id, name, raw, context, detail);
}
