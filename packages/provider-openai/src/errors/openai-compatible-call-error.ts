import { type LanguageModelV1Usage, ModelCallError, type ModelCallErrorKind } from '@tiny/llm';

const marker = Symbol.for('tiny.error.OpenAICompatibleCallError');

/**
 * A call to an OpenAI-compatible endpoint failed: an HTTP error status, a transport failure, or an
 * error event in the middle of a stream. A `ModelCallError` (so the harness retry policy and
 * `ModelCallError.isInstance` see it) with the provider's own facts: its message, error type and
 * code, the request id, and how long the server asked the client to wait.
 *
 * `kind` is the shared `ModelCallErrorKind` (`rate_limit`, `context_overflow`,
 * `tools_unsupported`, `invalid_chunk`, ...), read the same way as in every adapter
 * (`classifyProviderError` of `@tiny/provider-utils`); `providerKind` keeps the provider's word
 * beside it: the error type or code it sent (`insufficient_quota`, `exceed_context_size_error`), or
 * the adapter's (`tools_unsupported_in_stream`, `invalid_chunk_json`, `protocol_violation`,
 * `transport`, `incomplete_stream`, `redirect`, `response_too_large`, `response_timeout`).
 *
 * `statusCode` is the HTTP status, or for an error inside a 200 body or stream the status the
 * error carried (`{"error":{"code":500}}`), else 200; absent when no response arrived. The
 * payload's code is `errorCode`. `isRetryable` follows the kind (`isRetryableKind`: rate limits,
 * overloads, server errors, network failures, timeouts, incomplete streams and unparsable chunks
 * are retried; quota, context overflow, auth, capability rejections and server configuration
 * failures never). The API key never appears in `message` or `responseBody`: both are scrubbed of it.
 */
export class OpenAICompatibleCallError extends ModelCallError {
  readonly [marker] = true;
  /** The provider's own error message (`error.message` of the body), when it sent one. */
  readonly providerMessage: string | undefined;
  /** The provider's error type (`invalid_request_error`, `server_error`, ...), when it sent one. */
  readonly errorType: string | undefined;
  /** The provider's error code (`rate_limit_exceeded`, `invalid_api_key`, ...), when it sent one. */
  readonly errorCode: string | undefined;
  /** The request field the provider blamed (`error.param`), when it named one. */
  readonly param: string | undefined;
  /** The request id from `x-request-id` (or `request-id`), for support tickets and logs. */
  readonly requestId: string | undefined;
  /**
   * How long the server asked to wait before retrying, in milliseconds (`retry-after-ms`,
   * `retry-after`, or the reset of an exhausted `x-ratelimit-*` limit). Absent when it said nothing.
   */
  override readonly retryAfterMs: number | undefined;
  /**
   * The token usage a stream reported before it failed (an OpenRouter error chunk after a `length`
   * finish carries it), when it reported any.
   */
  readonly usage: LanguageModelV1Usage | undefined;

  constructor(options: {
    message: string;
    kind: ModelCallErrorKind;
    providerKind?: string | undefined;
    statusCode?: number | undefined;
    responseBody?: string | undefined;
    provider?: string | undefined;
    isRetryable?: boolean | undefined;
    providerMessage?: string | undefined;
    errorType?: string | undefined;
    errorCode?: string | undefined;
    param?: string | undefined;
    requestId?: string | undefined;
    retryAfterMs?: number | undefined;
    usage?: LanguageModelV1Usage | undefined;
    cause?: unknown;
  }) {
    super(options);
    this.name = 'OpenAICompatibleCallError';
    this.providerMessage = options.providerMessage;
    this.errorType = options.errorType;
    this.errorCode = options.errorCode;
    this.param = options.param;
    this.requestId = options.requestId;
    this.retryAfterMs = options.retryAfterMs;
    this.usage = options.usage !== undefined && Object.keys(options.usage).length > 0 ? options.usage : undefined;
  }

  static override isInstance(value: unknown): value is OpenAICompatibleCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
