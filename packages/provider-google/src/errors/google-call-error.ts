import { ModelCallError, type ModelCallErrorKind } from '@tiny/llm';

const marker = Symbol.for('tiny.error.GoogleCallError');

/**
 * A call to the Gemini API (AI Studio or Vertex AI) failed: an HTTP error status, a transport
 * failure, or an error object inside a started stream. A `ModelCallError`, so the harness retry
 * policy and `ModelCallError.isInstance` see it, with the API's own facts.
 *
 * `kind` is the shared `ModelCallErrorKind`; `providerKind` keeps the API's own word beside it: the
 * `google.rpc` status it sent (`RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`, `UNAVAILABLE`, ...), else
 * the adapter's (`transport`, `incomplete_stream`, `protocol_violation`, `invalid_chunk_json`,
 * `redirect`, `response_too_large`, `response_timeout`). `retryAfterMs` comes from `retry-after`,
 * else from a `google.rpc.RetryInfo` detail's `retryDelay`. The API key and the Vertex token never
 * appear in `message`, `providerMessage` or `responseBody`.
 */
export class GoogleCallError extends ModelCallError {
  readonly [marker] = true;
  /** The `google.rpc` status (`error.status`), when the API sent one. */
  readonly status: string | undefined;
  /** The API's `error.message`, when it sent one. */
  readonly providerMessage: string | undefined;
  /** The `error.details` the API sent (`BadRequest` field violations, `RetryInfo`, `ErrorInfo`, ...); empty when none. */
  readonly details: readonly unknown[];
  /** How long to wait before retrying, in milliseconds, when the answer said. */
  override readonly retryAfterMs: number | undefined;

  constructor(options: {
    message: string;
    kind: ModelCallErrorKind;
    providerKind?: string | undefined;
    statusCode?: number | undefined;
    responseBody?: string | undefined;
    provider?: string | undefined;
    status?: string | undefined;
    providerMessage?: string | undefined;
    details?: readonly unknown[] | undefined;
    isRetryable?: boolean | undefined;
    retryAfterMs?: number | undefined;
    cause?: unknown;
  }) {
    super(options);
    this.name = 'GoogleCallError';
    this.status = options.status;
    this.providerMessage = options.providerMessage;
    this.details = options.details ?? [];
    this.retryAfterMs = options.retryAfterMs;
  }

  static override isInstance(value: unknown): value is GoogleCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
