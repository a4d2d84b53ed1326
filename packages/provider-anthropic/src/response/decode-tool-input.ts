import { createInvalidToolCall, type LanguageModelV1ToolCall, recoverToolArguments } from '@tiny/llm';
import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

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
 * kept: a repaired prefix of cut-off arguments must never run (`truncated` also covers a block
 * the stream never closed). Input nesting deeper than `MAX_WIRE_DEPTH` levels is an invalid call,
 * never serialised. Never throws.
 * @internal
 */
export function decodeToolInput(
  id: string,
  name: string,
  input: unknown,
  context: ToolCallContext,
  truncated: boolean | string = false,
): LanguageModelV1ToolCall {
  const tooDeep = () =>
    invalid(
      id,
      name,
      `<input nested deeper than ${MAX_WIRE_DEPTH} levels>`,
      context,
      `the input nests deeper than ${MAX_WIRE_DEPTH} levels`,
    );
  if (exceedsWireDepth(input)) return tooDeep();
  if (isObject(input) && !truncated) return { id, name, arguments: input };
  const raw = typeof input === 'string' ? input : input === undefined || input === null ? '' : JSON.stringify(input);
  if (truncated)
    return invalid(
      id,
      name,
      raw,
      context,
      typeof truncated === 'string' ? truncated : 'the output token limit (max_tokens) cut the call off',
    );
  if (raw.trim() === '') return { id, name, arguments: {}, rawArguments: raw };
  let detail = 'the arguments are not a JSON object';
  try {
    const value: unknown = JSON.parse(raw);
    if (exceedsWireDepth(value)) return tooDeep();
    if (isObject(value)) return { id, name, arguments: value, rawArguments: raw };
  } catch (error) {
    detail = error instanceof Error ? error.message : String(error);
  }
  const repaired = recoverToolArguments(raw);
  if (exceedsWireDepth(repaired)) return tooDeep();
  if (repaired !== undefined) return { id, name, arguments: repaired, rawArguments: raw };
  return invalid(id, name, raw, context, detail);
}
