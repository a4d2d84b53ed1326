import { TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ModelCallError');

/**
 * True for HTTP statuses worth retrying: 408 (request timeout), 409 (conflict), 429 (rate
 * limited) and every 5xx. Any other status (400, 401, 403, 404, 422, ...) will fail again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * A call to a model failed: a transport error, an HTTP error status, or an error reported in the
 * middle of a stream. `isRetryable` says whether the same request may succeed when sent again;
 * when it is not given it is derived from `statusCode` with {@link isRetryableStatus}, and is
 * false without a status.
 */
export class ModelCallError extends TinyError {
  readonly [marker] = true;
  /** Whether sending the same request again may succeed. */
  readonly isRetryable: boolean;
  /** The HTTP status, when the provider answered with one. */
  readonly statusCode: number | undefined;
  /** The raw error body as received, for logs; may contain provider text. */
  readonly responseBody: string | undefined;
  /** The provider that failed (`openai`, `anthropic`, ...), when known. */
  readonly provider: string | undefined;
  /** How long the provider asked callers to wait before retrying (`retry-after`), when it said. */
  readonly retryAfterMs: number | undefined;
  /**
   * How many times the request was sent before this error was final, when a retry loop (the
   * harness, `limits.maxRetriesPerCall`) gave up on it; absent on an error no one retried.
   */
  readonly attempts?: number | undefined;

  constructor(options: {
    message: string;
    statusCode?: number | undefined;
    responseBody?: string | undefined;
    provider?: string | undefined;
    isRetryable?: boolean | undefined;
    retryAfterMs?: number | undefined;
    cause?: unknown;
  }) {
    super('ModelCallError', options.message, options);
    this.statusCode = options.statusCode;
    this.responseBody = options.responseBody;
    this.provider = options.provider;
    this.retryAfterMs = options.retryAfterMs;
    this.isRetryable =
      options.isRetryable ?? (options.statusCode === undefined ? false : isRetryableStatus(options.statusCode));
  }

  static override isInstance(value: unknown): value is ModelCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
