import { ModelCallError } from '@tiny/llm';

const marker = Symbol.for('tiny.error.AnthropicCallError');

/**
 * What kind of failure an {@link AnthropicCallError} is, from the API's `error.type` (or, when the
 * body says nothing, the HTTP status):
 * - `invalid_request` (400 `invalid_request_error`), `authentication` (401), `permission` (403),
 *   `not_found` (404), `request_too_large` (413): the same request fails again;
 * - `rate_limited` (429 `rate_limit_error`), `api_error` (500), `overloaded` (529
 *   `overloaded_error`): worth retrying, after `retryAfterMs` when the server said;
 * - `transport`: no answer arrived or the body could not be read (retryable);
 * - `incomplete_stream`: the stream ended, or its connection dropped, before the model finished
 *   (no `stop_reason` arrived); the text streamed so far is kept before the error (retryable);
 * - `protocol_violation`: the stream broke the Messages protocol (content after the stop reason, a
 *   second `message_start`, a flood of content blocks); nothing of it may run (not retryable);
 * - `redirect`: the server answered with a redirect the adapter refuses (to another origin, a
 *   `301`/`302`/`303`, too many hops); nothing, the key included, was sent to its target;
 * - `response_too_large`: a stream line or event, the stream or the body passed `limits`;
 * - `response_timeout`: no meaningful event within `limits.idleTimeoutMs` (`ping` events and
 *   comments do not count), or the response took longer than `limits.totalTimeoutMs` (retryable);
 * - `other`: any other status or error type (retryable per `isRetryableStatus`).
 */
export type AnthropicErrorKind =
  | 'overloaded'
  | 'rate_limited'
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'request_too_large'
  | 'api_error'
  | 'transport'
  | 'incomplete_stream'
  | 'protocol_violation'
  | 'redirect'
  | 'response_too_large'
  | 'response_timeout'
  | 'other';

/**
 * A call to the Anthropic Messages API (or a server speaking it) failed: an HTTP error status, a
 * transport failure, or an `error` event in the middle of a stream. A `ModelCallError`, so the
 * harness retry policy and `ModelCallError.isInstance` see it, with the API's own facts.
 *
 * `isRetryable` is true for `rate_limited`, `api_error`, `overloaded`, `transport` and
 * `incomplete_stream`, and for other statuses per `isRetryableStatus`. The API key never appears in `message`,
 * `providerMessage` or `responseBody`: each is scrubbed of it.
 */
export class AnthropicCallError extends ModelCallError {
  readonly [marker] = true;
  /** The failure, classified. */
  readonly kind: AnthropicErrorKind;
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
    kind: AnthropicErrorKind;
    statusCode?: number | undefined;
    responseBody?: string | undefined;
    provider?: string | undefined;
    isRetryable?: boolean | undefined;
    errorType?: string | undefined;
    providerMessage?: string | undefined;
    requestId?: string | undefined;
    retryAfterMs?: number | undefined;
    rateLimits?: Readonly<Record<string, string>> | undefined;
    cause?: unknown;
  }) {
    super(options);
    this.name = 'AnthropicCallError';
    this.kind = options.kind;
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
