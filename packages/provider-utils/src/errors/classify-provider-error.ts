import type { ModelCallErrorKind } from '@tiny/llm';
import { isRetryableKind, kindFromStatus } from '@tiny/llm';
import { retryDelay } from '../http/retry-delay.js';

/** What a failed call said about itself: the facts an adapter read off the answer. */
export interface ProviderErrorFacts {
  /** The HTTP status of an error answer (absent, or 200, for an error inside a stream or body). */
  readonly statusCode?: number | undefined;
  /** A status the payload carried (`error.code: 500`), used when the HTTP status says nothing. */
  readonly payloadStatus?: number | undefined;
  readonly type?: string | undefined;
  readonly code?: string | undefined;
  readonly message?: string | undefined;
  readonly param?: string | undefined;
  /** The error came inside a response that had started fine (an SSE `error` event, a 200 body). */
  readonly inBody?: boolean | undefined;
}

/** The shared kind, and the provider's own word for the failure beside it. */
export interface ProviderErrorClass {
  readonly kind: ModelCallErrorKind;
  /** The provider's error type or code as sent (`overloaded_error`, `exceed_context_size_error`), or a finer word (`tools_unsupported_in_stream`). */
  readonly providerKind: string | undefined;
}

/**
 * Explicit "this model or server takes no tools" messages: Ollama `<model> does not support
 * tools`, llama.cpp without `--jinja` `tools param requires --jinja flag`, vLLM without a tool
 * parser `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`,
 * OpenRouter `No endpoints found that support tool use`, and generic "tool(s)/function calling ...
 * not supported" wording.
 */
const toolsRejected = [
  /does not support (?:tools|tool use|tool calling|function calling)/i,
  /tools? param(?:eter)? requires --jinja/i,
  /tool choice requires --enable-auto-tool-choice/i,
  /no endpoints found that support tool use/i,
  /\b(?:tools?|tool[ _]calls?|tool[ _]calling|tool use|function[ _]calling)\b[^.\n]{0,40}\b(?:not supported|unsupported|not enabled)\b/i,
];
/**
 * A prompt past the model's context: OpenAI `context_length_exceeded`, llama.cpp `the request
 * exceeds the available context size` (400) and `Context size has been exceeded` (500), Anthropic
 * `prompt is too long`, vLLM `maximum context length`, Ollama and others.
 */
const contextExceeded =
  /context[ _](?:length|size|window)|maximum context|exceeds the (?:available )?context|prompt is too long|too many (?:input )?tokens|input is too long|reduce the length of the messages/i;
const quotaExhausted =
  /insufficient[ _](?:quota|balance|credits?|funds)|exceeded your current quota.*billing|out of credits/i;
/** The output format named as the cause of a rejection (OpenAI `response_format`, Anthropic `output_format`). */
const namesFormat = /response_format|json_schema|json_object|structured output|output_format|output_config/i;
/** Server-configuration failures no retry fixes (llama.cpp answers 500 to them): a chat template that fails to render. */
const configurationFailure =
  /--jinja|chat[ _]template|jinja (?:exception|error)|template (?:error|exception)|failed to (?:apply|render|parse) (?:the )?(?:chat )?template/i;

/** Error types and codes providers send, each with its shared kind. */
const byWord: ReadonlyMap<string, ModelCallErrorKind> = new Map([
  ['rate_limit_error', 'rate_limit'],
  ['rate_limit_exceeded', 'rate_limit'],
  ['tokens', 'rate_limit'],
  ['overloaded_error', 'overloaded'],
  ['authentication_error', 'auth'],
  ['invalid_api_key', 'auth'],
  ['permission_error', 'permission'],
  ['not_found_error', 'not_found'],
  ['model_not_found', 'not_found'],
  ['invalid_request_error', 'invalid_request'],
  ['request_too_large', 'invalid_request'],
  ['api_error', 'server_error'],
  ['server_error', 'server_error'],
  ['internal_error', 'server_error'],
  ['internal_server_error', 'server_error'],
  ['unavailable_error', 'server_error'],
  ['timeout_error', 'timeout'],
  ['exceed_context_size_error', 'context_overflow'],
  ['context_length_exceeded', 'context_overflow'],
  ['string_above_max_length', 'context_overflow'],
  ['insufficient_quota', 'quota_exceeded'],
  ['billing_error', 'quota_exceeded'],
  ['content_filter', 'content_filter'],
  ['content_policy_violation', 'content_filter'],
  // OpenAI Responses: a prompt the API refuses to process (a policy rejection); no retry changes it.
  ['invalid_prompt', 'invalid_request'],
]);

/** Types and codes that name no failure of their own (any request error, any server error): the message may refine them. */
const genericWords = new Set([
  'error',
  'invalid_request_error',
  'invalid_request',
  'bad_request',
  'api_error',
  'server_error',
  'internal_error',
  'internal_server_error',
  'unavailable_error',
  'upstream_error',
]);

/**
 * The shared kind of a provider's error answer, the same way for every adapter. The HTTP status
 * (else the status the payload carried) and the error's own type or code decide first; the
 * message's wording only refines within the class the status allows:
 * 1. a 429 is `quota_exceeded` when its type, code or message says quota, else `rate_limit`
 *    (never a context overflow or anything else, whatever the wording);
 * 2. a specific type or code (`overloaded_error`, `exceed_context_size_error`, `insufficient_quota`,
 *    `authentication_error`, ...; a code before a type) is its kind; the generic
 *    `invalid_request_error` and server-error words are not specific;
 * 3. 401, 402, 403, 408, 409, 503 and 529 are their status's kind (`auth`, `quota_exceeded`,
 *    `permission`, `timeout`, `unknown`, `server_error`, `overloaded`): wording
 *    never turns a 529 or 503 into a context overflow or a tools refusal;
 * 4. any other status (400, 404, 413, 422, 500, 502, ...; OpenRouter answers 404 when no endpoint takes tools) or none (an error inside a body): the message
 *    refines: native tools refused (`tools_unsupported`; `tools_unsupported_in_stream` for
 *    llama.cpp's `Cannot use tools with stream`), quota, context overflow, a chat-template
 *    failure of the server (`invalid_request`: no retry fixes it), a 400/422 naming the output
 *    format (`response_format_unsupported`);
 * 5. the generic type (`invalid_request_error` yields to a status that says more), else the
 *    status ({@link kindFromStatus}); an error inside a body that had started fine, saying nothing
 *    known, is `server_error` (retryable); anything else `unknown`.
 */
export function classifyProviderError(facts: ProviderErrorFacts): ProviderErrorClass {
  const message = [facts.param, facts.message].filter((part) => part !== undefined).join('\n');
  const type = facts.type?.toLowerCase();
  const code = facts.code?.toLowerCase();
  const status = facts.statusCode !== undefined && facts.statusCode >= 400 ? facts.statusCode : facts.payloadStatus;
  const own = facts.type ?? facts.code;
  const byCode = code === undefined ? undefined : byWord.get(code);
  const byType = type === undefined ? undefined : byWord.get(type);
  const fromStatus = kindFromStatus(status);
  const says = (kind: ModelCallErrorKind) => byCode === kind || byType === kind;
  const specific =
    (code !== undefined && !genericWords.has(code) ? byCode : undefined) ??
    (type !== undefined && !genericWords.has(type) ? byType : undefined);
  if (status === 429) {
    const quota = says('quota_exceeded') || quotaExhausted.test(message);
    return { kind: quota ? 'quota_exceeded' : 'rate_limit', providerKind: own };
  }
  if (specific !== undefined) return { kind: specific, providerKind: own };
  if (status !== undefined && [401, 402, 403, 408, 409, 503, 529].includes(status))
    return { kind: status === 402 ? 'quota_exceeded' : fromStatus, providerKind: own };
  if (/cannot use tools with stream/i.test(message))
    return { kind: 'tools_unsupported', providerKind: 'tools_unsupported_in_stream' };
  if (toolsRejected.some((pattern) => pattern.test(message))) return { kind: 'tools_unsupported', providerKind: own };
  if (quotaExhausted.test(message)) return { kind: 'quota_exceeded', providerKind: own };
  if (contextExceeded.test(message)) return { kind: 'context_overflow', providerKind: own };
  if (configurationFailure.test(facts.message ?? ''))
    return { kind: 'invalid_request', providerKind: own ?? 'server_configuration' };
  if (
    (status === 400 || status === 422) &&
    (facts.param === 'response_format' || namesFormat.test(facts.message ?? ''))
  )
    return { kind: 'response_format_unsupported', providerKind: own };
  const generic = byCode ?? byType;
  const word =
    generic === 'invalid_request' && !['invalid_request', 'unknown', 'server_error'].includes(fromStatus)
      ? fromStatus
      : generic;
  if (word !== undefined) return { kind: word, providerKind: own };
  if (fromStatus !== 'unknown') return { kind: fromStatus, providerKind: own };
  return { kind: facts.inBody === true ? 'server_error' : 'unknown', providerKind: own };
}

/**
 * Whether to retry, and after how long, derived the same way by every adapter: `isRetryable` from
 * the kind (`isRetryableKind` of `@tiny/llm`; an `unknown` kind by its status), `retryAfterMs` from
 * the answer's headers (see {@link retryDelay}), kept only for a retryable kind.
 */
export function deriveRetry(
  kind: ModelCallErrorKind,
  statusCode: number | undefined,
  headers?: Headers | undefined,
): { isRetryable: boolean; retryAfterMs: number | undefined } {
  const isRetryable = isRetryableKind(kind, statusCode);
  return { isRetryable, retryAfterMs: isRetryable ? retryDelay(headers) : undefined };
}
