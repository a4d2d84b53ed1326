import { ModelCallError, type ModelCallErrorKind } from '@tiny/llm';

const marker = Symbol.for('tiny.error.OpenAIResponsesCallError');

/**
 * A call to the OpenAI Responses API (or a server speaking it) failed: an HTTP error status, a
 * transport failure, an `error` event or a `response.failed` event in the middle of a stream, or
 * an error body answered with 200. A `ModelCallError`, so the harness retry policy and
 * `ModelCallError.isInstance` see it, with the API's own facts.
 *
 * `kind` is the shared `ModelCallErrorKind` (`rate_limit`, `quota_exceeded`, `context_overflow`,
 * `protocol_violation`, ...), read as in every adapter (`classifyProviderError` of
 * `@tiny/provider-utils`); `providerKind` keeps the API's word beside it (the `error.code` or
 * `error.type` it sent, or the adapter's: `transport`, `incomplete_stream`, `protocol_violation`,
 * `invalid_chunk_json`, `redirect`, `response_too_large`, `response_timeout`). The API key and
 * every header value of the request never appear in `message`, `providerMessage` or `responseBody`.
 */
export class OpenAIResponsesCallError extends ModelCallError {
  readonly [marker] = true;
  /** The API's `error.message`, when it sent one. */
  readonly providerMessage: string | undefined;
  /** The API's `error.type` (`invalid_request_error`, `server_error`, ...), when it sent one. */
  readonly errorType: string | undefined;
  /** The API's `error.code` (`rate_limit_exceeded`, `insufficient_quota`, ...), when it sent one. */
  readonly errorCode: string | undefined;
  /** The request field the API blamed (`error.param`), when it named one. */
  readonly param: string | undefined;
  /** The request id (`x-request-id`), for support and logs. */
  readonly requestId: string | undefined;
  /** How long the server asked to wait before a retry, in milliseconds; absent when it said nothing. */
  override readonly retryAfterMs: number | undefined;

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
    cause?: unknown;
  }) {
    super(options);
    this.name = 'OpenAIResponsesCallError';
    this.providerMessage = options.providerMessage;
    this.errorType = options.errorType;
    this.errorCode = options.errorCode;
    this.param = options.param;
    this.requestId = options.requestId;
    this.retryAfterMs = options.retryAfterMs;
  }

  static override isInstance(value: unknown): value is OpenAIResponsesCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
