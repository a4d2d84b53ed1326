import type { OpenAICompatibleCallError } from './openai-compatible-call-error.js';

/** Request fields sent in a form some servers reject, each with a fallback form. @internal */
export type DegradableField = 'tool_choice' | 'response_format' | 'parallel_tool_calls' | 'stream_options';

/**
 * Explicit "this model or server takes no tools" messages:
 * Ollama `<model> does not support tools`, llama.cpp without `--jinja` `tools param requires
 * --jinja flag`, vLLM without a tool parser `"auto" tool choice requires --enable-auto-tool-choice
 * and --tool-call-parser to be set`, OpenRouter `No endpoints found that support tool use`, and
 * generic "tool(s)/function calling ... not supported" wording.
 */
const toolsRejected = [
  /does not support (?:tools|tool use|tool calling|function calling)/i,
  /tools? param(?:eter)? requires --jinja/i,
  /tool choice requires --enable-auto-tool-choice/i,
  /no endpoints found that support tool use/i,
  /\b(?:tools?|tool[ _]calls?|tool[ _]calling|tool use|function[ _]calling)\b[^.\n]{0,40}\b(?:not supported|unsupported|not enabled)\b/i,
];

function textOf(error: OpenAICompatibleCallError): string {
  return [error.param, error.providerMessage, error.responseBody].filter((part) => part !== undefined).join('\n');
}

/** Statuses a tools rejection comes with: 400, 422, OpenRouter's 404, and the 500 of some llama.cpp builds. */
const rejectionStatuses: ReadonlySet<number | undefined> = new Set([400, 404, 422, 500]);

/**
 * True when a failed call says the model or server cannot take native tools at all: a 400 (or
 * 404, 422, 500, see above) whose body says so in one of the known ways. A bare 400 is not
 * enough: it is as often a malformed request or an over-long context.
 * @internal
 */
export function rejectsTools(error: OpenAICompatibleCallError): boolean {
  if (!rejectionStatuses.has(error.statusCode)) return false;
  const text = textOf(error);
  return toolsRejected.some((pattern) => pattern.test(text));
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
