import { ModelCallError, type ModelCallErrorKind } from '@tiny/llm';

const marker = Symbol.for('tiny.error.AnthropicCallError');

/**
 * A call to the Anthropic Messages API (or a server speaking it) failed: an HTTP error status, a
 * transport failure, or an `error` event in the middle of a stream. A `ModelCallError`, so the
 * harness retry policy and `ModelCallError.isInstance` see it, with the API's own facts.
 *
 * `kind` is the shared `ModelCallErrorKind` (`overloaded`, `rate_limit`, `context_overflow`,
 * `protocol_violation`, ...); `providerKind` keeps the API's own word beside it: the `error.type`
 * it sent (`overloaded_error`, llama.cpp's `exceed_context_size_error`), else the adapter's
 * (`transport`, `incomplete_stream`, `protocol_violation`, `invalid_chunk_json`, `redirect`,
 * `response_too_large`, `response_timeout`). `isRetryable` and `retryAfterMs` are derived from the
 * kind and the headers as for every adapter (`deriveRetry` of `@tiny/provider-utils`). The API key
 * never appears in `message`, `providerMessage` or `responseBody`: each is scrubbed of it.
 */
export class AnthropicCallError extends ModelCallError {
  readonly [marker] = true;
  /** The API's `error.type` (`overloaded_error`, `rate_limit_error`, ...), when it sent one. */
  readonly errorType: string | undefined;
  /** The API's `error.message`, when it sent one. */
  readonly providerMessage: string | undefined;
  /** The request id (`request-id` header or the body's `request_id`), for support and logs. */
  readonly requestId: string | undefined;
  /**
   * How long to wait before retrying, in milliseconds: `retry-after`, else the earliest
   * `anthropic-ratelimit-*-reset` among the limits whose `-remaining` is 0. Absent when unknown.
   */
  override readonly retryAfterMs: number | undefined;
  /** Every `anthropic-ratelimit-*` header of the answer, names lower-cased; empty when none. */
  readonly rateLimits: Readonly<Record<string, string>>;

  constructor(options: {
    message: string;
    kind: ModelCallErrorKind;
    providerKind?: string | undefined;
    statusCode?: number | undefined;
    responseBody?: string | undefined;
    provider?: string | undefined;
    errorType?: string | undefined;
    providerMessage?: string | undefined;
    requestId?: string | undefined;
    retryAfterMs?: number | undefined;
    rateLimits?: Readonly<Record<string, string>> | undefined;
    cause?: unknown;
  }) {
    super(options);
    this.name = 'AnthropicCallError';
    this.errorType = options.errorType;
    this.providerMessage = options.providerMessage;
    this.requestId = options.requestId;
    this.retryAfterMs = options.retryAfterMs;
    this.rateLimits = options.rateLimits ?? {};
  }

  static override isInstance(value: unknown): value is AnthropicCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
