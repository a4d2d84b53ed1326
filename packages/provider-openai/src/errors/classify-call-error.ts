/**
 * What went wrong in a failed call to an OpenAI-compatible endpoint, as one word:
 * - `tools_unsupported`: the model or server takes no native tools (Ollama `does not support
 *   tools`, llama.cpp without `--jinja`, vLLM without a tool parser);
 * - `tools_unsupported_in_stream`: tools work, but not with `stream: true` (older llama.cpp:
 *   500 `Cannot use tools with stream`);
 * - `response_format_unsupported`: the server rejected the `response_format` sent;
 * - `incomplete_stream`: the stream ended (with or without `[DONE]`, or by a dropped
 *   connection) before the model finished;
 * - `invalid_chunk_json`: a stream event was not JSON (the parse failure is the `cause`);
 * - `protocol_violation`: the stream broke the protocol (content after a finish reason, a flood
 *   of choices or tool calls, a completion with two choices of one index); never retryable;
 * - `rate_limited`: too many requests now (429, `rate_limit_exceeded`);
 * - `quota_exceeded`: out of credits or quota (OpenAI `insufficient_quota`, 402 from DeepSeek
 *   and OpenRouter); never retryable;
 * - `context_length_exceeded`: the prompt does not fit the model's context; never retryable;
 * - `authentication`: a missing, wrong or unauthorised key (401, 403, `invalid_api_key`);
 * - `server_error`: the server failed (5xx, `server_error`, a lost connection);
 * - `redirect`: the server answered with a redirect the adapter refuses (to another origin, a
 *   `301`/`302`/`303`, too many hops); nothing was sent to its target; never retryable;
 * - `response_too_large`: a stream line or event, the stream or the body passed `limits`
 *   (`maxEventBytes`, `maxResponseBytes`); never retryable;
 * - `response_timeout`: no meaningful event within `limits.idleTimeoutMs` (keep-alives do not
 *   count), or the response took longer than `limits.totalTimeoutMs`; retryable;
 * - `other`: anything else.
 */
export type OpenAICompatibleErrorKind =
  | 'tools_unsupported'
  | 'tools_unsupported_in_stream'
  | 'response_format_unsupported'
  | 'incomplete_stream'
  | 'invalid_chunk_json'
  | 'protocol_violation'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'context_length_exceeded'
  | 'authentication'
  | 'server_error'
  | 'redirect'
  | 'response_too_large'
  | 'response_timeout'
  | 'other';

/** The facts a kind is read from. @internal */
export interface ErrorFacts {
  readonly statusCode?: number | undefined;
  readonly errorType?: string | undefined;
  readonly errorCode?: string | undefined;
  readonly providerMessage?: string | undefined;
  readonly param?: string | undefined;
}

const toolsRejected = [
  /does not support (?:tools|tool use|tool calling|function calling)/i,
  /tools? param(?:eter)? requires --jinja/i,
  /tool choice requires --enable-auto-tool-choice/i,
  /no endpoints found that support tool use/i,
  /\b(?:tools?|tool[ _]calls?|tool[ _]calling|tool use|function[ _]calling)\b[^.\n]{0,40}\b(?:not supported|unsupported|not enabled)\b/i,
];

const contextExceeded =
  /context[ _](?:length|size)|maximum context|context window|exceeds the (?:available )?context|prompt is too long|too many (?:input )?tokens|input is too long|reduce the length of the messages/i;

const quotaExhausted =
  /insufficient[ _](?:quota|balance|credits?|funds)|exceeded your current quota.*billing|out of credits/i;

/**
 * Server-configuration failures that no retry fixes, whatever status they come with (llama.cpp
 * answers 500 to them): a chat template that fails to render or needs `--jinja`.
 */
const configurationFailure =
  /--jinja|chat[ _]template|jinja (?:exception|error)|template (?:error|exception)|failed to (?:apply|render|parse) (?:the )?(?:chat )?template/i;

/** The kinds no retry can fix. @internal */
export const NON_RETRYABLE_KINDS: ReadonlySet<OpenAICompatibleErrorKind> = new Set([
  'tools_unsupported',
  'tools_unsupported_in_stream',
  'response_format_unsupported',
  'quota_exceeded',
  'context_length_exceeded',
  'authentication',
  'redirect',
  'response_too_large',
]);

/** True when the failure is a server configuration problem (see above): never retryable. @internal */
export function isConfigurationFailure(facts: ErrorFacts): boolean {
  return configurationFailure.test(facts.providerMessage ?? '');
}

/**
 * Reads the kind of a failed call from its status, the payload's type and code, and the provider's
 * message (see {@link OpenAICompatibleErrorKind}). The payload code (`errorCode`) counts as much as
 * the HTTP status: a stream error has status 200 and its code in the payload.
 * @internal
 */
export function classifyCallError(facts: ErrorFacts): OpenAICompatibleErrorKind {
  const message = [facts.param, facts.providerMessage].filter((part) => part !== undefined).join('\n');
  const code = (facts.errorCode ?? '').toLowerCase();
  const type = (facts.errorType ?? '').toLowerCase();
  const payloadStatus = /^\d{3}$/.test(code) ? Number(code) : undefined;
  const status = facts.statusCode !== undefined && facts.statusCode >= 400 ? facts.statusCode : payloadStatus;
  if (/cannot use tools with stream/i.test(message)) return 'tools_unsupported_in_stream';
  if (toolsRejected.some((pattern) => pattern.test(message))) return 'tools_unsupported';
  if (
    code === 'insufficient_quota' ||
    type === 'insufficient_quota' ||
    status === 402 ||
    quotaExhausted.test(message)
  ) {
    return 'quota_exceeded';
  }
  if (code === 'context_length_exceeded' || code === 'string_above_max_length' || contextExceeded.test(message)) {
    return 'context_length_exceeded';
  }
  if (
    (status === 400 || status === 422) &&
    (facts.param === 'response_format' ||
      /response_format|json_schema|json_object|structured output/i.test(facts.providerMessage ?? ''))
  ) {
    return 'response_format_unsupported';
  }
  if (status === 429 || code === 'rate_limit_exceeded' || type === 'rate_limit_error' || type === 'tokens') {
    return 'rate_limited';
  }
  if (status === 401 || status === 403 || code === 'invalid_api_key' || type === 'authentication_error') {
    return 'authentication';
  }
  if ((status !== undefined && status >= 500) || type === 'server_error' || code === 'server_error') {
    return 'server_error';
  }
  return 'other';
}
