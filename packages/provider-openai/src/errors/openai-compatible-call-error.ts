import { ModelCallError } from '@tiny/llm';

const marker = Symbol.for('tiny.error.OpenAICompatibleCallError');

/**
 * A call to an OpenAI-compatible endpoint failed: an HTTP error status, a transport failure, or an
 * error event in the middle of a stream. A `ModelCallError` (so the harness retry policy and
 * `ModelCallError.isInstance` see it) with the provider's own facts: its message, error type and
 * code, the request id, and how long the server asked the client to wait.
 *
 * `isRetryable` follows `isRetryableStatus` (408, 409, 429 and 5xx) when there is a status; a
 * transport failure and a dropped stream are retryable, any other failure without a status is
 * not. The API key never appears in `message` or `responseBody`: both are scrubbed of it.
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
   * How long the server asked to wait before retrying, in milliseconds, from `retry-after-ms` or
   * `retry-after` (seconds or an HTTP date). Absent when the server said nothing.
   */
  override readonly retryAfterMs: number | undefined;

  constructor(options: {
    message: string;
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
    this.name = 'OpenAICompatibleCallError';
    this.providerMessage = options.providerMessage;
    this.errorType = options.errorType;
    this.errorCode = options.errorCode;
    this.param = options.param;
    this.requestId = options.requestId;
    this.retryAfterMs = options.retryAfterMs;
  }

  static override isInstance(value: unknown): value is OpenAICompatibleCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
