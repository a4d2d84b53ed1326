import type { OpenAICompatibleCallError } from './openai-compatible-call-error.js';

/** Request fields sent in a form some servers reject, each with a fallback form. @internal */
export type DegradableField = 'tool_choice' | 'response_format' | 'parallel_tool_calls' | 'stream_options';

function textOf(error: OpenAICompatibleCallError): string {
  return [error.param, error.providerMessage, error.responseBody].filter((part) => part !== undefined).join('\n');
}

/** Statuses a tools rejection comes with: 400, 422, OpenRouter's 404, and the 500 of some llama.cpp builds. */
const rejectionStatuses: ReadonlySet<number | undefined> = new Set([400, 404, 422, 500]);

/**
 * True when a failed call says the model or server cannot take native tools at all: a 400 (or
 * 404, 422, 500, see above) of the shared kind `tools_unsupported` (its message says so in one of
 * the known ways, see `classifyProviderError`). A bare 400 is not enough: it is as often a
 * malformed request or an over-long context.
 * @internal
 */
export function rejectsTools(error: OpenAICompatibleCallError): boolean {
  return rejectionStatuses.has(error.statusCode) && error.kind === 'tools_unsupported';
}

const fieldPatterns: Readonly<Record<DegradableField, readonly RegExp[]>> = {
  // LM Studio: "Invalid tool_choice type: 'object'. Supported string values: none, auto, required".
  tool_choice: [/tool_choice/i, /'none' \| 'auto' \| 'required'/i],
  // LM Studio: "'response_format.type' must be 'json_schema' or 'text'".
  response_format: [/response_format/i, /json_object/i],
  parallel_tool_calls: [/parallel_tool_calls/i],
  stream_options: [/stream_options/i],
};

/**
 * The field a 400 (or 422) blames, among those sent in a degradable form, so the call can be sent
 * once more with that field's fallback form. `undefined` when the error names none of them.
 * @internal
 */
export function implicatedField(
  error: OpenAICompatibleCallError,
  sent: ReadonlySet<DegradableField>,
): DegradableField | undefined {
  if (error.statusCode !== 400 && error.statusCode !== 422) return undefined;
  const text = textOf(error);
  for (const field of sent) {
    if (fieldPatterns[field].some((pattern) => pattern.test(text))) return field;
  }
  return undefined;
}
