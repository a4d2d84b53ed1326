import { isRetryableStatus, ModelCallError } from '@tiny/llm';
import {
  classifyCallError,
  isConfigurationFailure,
  NON_RETRYABLE_KINDS,
  type OpenAICompatibleErrorKind,
} from './classify-call-error.js';

const marker = Symbol.for('tiny.error.OpenAICompatibleCallError');

/**
 * A call to an OpenAI-compatible endpoint failed: an HTTP error status, a transport failure, or an
 * error event in the middle of a stream. A `ModelCallError` (so the harness retry policy and
 * `ModelCallError.isInstance` see it) with the provider's own facts: its message, error type and
 * code, the request id, and how long the server asked the client to wait.
 *
 * `kind` says what failed (see `OpenAICompatibleErrorKind`). `statusCode` is always the HTTP
 * status (200 for an error inside a stream or a 200 body; absent when no response arrived); a code
 * inside the payload is `errorCode`.
 *
 * `isRetryable` follows `isRetryableStatus` (408, 409, 429 and 5xx) of the HTTP status, or of a
 * status-like payload code; a transport failure and an incomplete stream are retryable. Retried
 * only what can succeed: `quota_exceeded` (OpenAI's `insufficient_quota` 429), a context overflow,
 * an authentication failure, a capability rejection, and server configuration failures (llama.cpp's
 * 500 `tools param requires --jinja`, chat-template errors) are never retryable, whatever the
 * status says. The API key never appears in `message` or `responseBody`: both are scrubbed of it.
 */
export class OpenAICompatibleCallError extends ModelCallError {
  readonly [marker] = true;
  /** What failed, as one word; see `OpenAICompatibleErrorKind`. */
  readonly kind: OpenAICompatibleErrorKind;
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
    kind?: OpenAICompatibleErrorKind | undefined;
    cause?: unknown;
  }) {
    const facts = {
      statusCode: options.statusCode,
      errorType: options.errorType,
      errorCode: options.errorCode,
      providerMessage: options.providerMessage,
      param: options.param,
    };
    const kind = options.kind ?? classifyCallError(facts);
    const payloadStatus = /^\d{3}$/.test(options.errorCode ?? '') ? Number(options.errorCode) : undefined;
    const status = options.statusCode !== undefined && options.statusCode >= 400 ? options.statusCode : payloadStatus;
    const retryable =
      NON_RETRYABLE_KINDS.has(kind) || isConfigurationFailure(facts)
        ? false
        : (options.isRetryable ?? (status === undefined ? false : isRetryableStatus(status)));
    super({ ...options, isRetryable: retryable });
    this.kind = kind;
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
