import { TinyError } from '@tiny/tools';
import {
  isRetryableKind,
  isRetryableStatus,
  kindFromStatus,
  type ModelCallErrorKind,
} from './model-call-error-kind.js';

export { isRetryableStatus };

const marker = Symbol.for('tiny.error.ModelCallError');

/**
 * A call to a model failed: a transport error, an HTTP error status, or an error reported in the
 * middle of a stream. `kind` says what failed in words shared by every adapter (see
 * {@link ModelCallErrorKind}); the adapter's own word stays in `providerKind`. `isRetryable` says
 * whether the same request may succeed when sent again: derived from `kind` with
 * {@link isRetryableKind} (an `unknown` kind by its `statusCode`); adapters never set it by hand.
 * Without a `kind`, it is read from `statusCode` ({@link kindFromStatus}).
 */
export class ModelCallError extends TinyError {
  readonly [marker] = true;
  /** What failed, in the words every adapter shares; decide on this, not on messages. */
  readonly kind: ModelCallErrorKind;
  /** The adapter's own word for the failure (`overloaded_error`, `invalid_chunk_json`, ...), when it has one. */
  readonly providerKind: string | undefined;
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
    kind?: ModelCallErrorKind | undefined;
    providerKind?: string | undefined;
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
    this.kind = options.kind ?? kindFromStatus(options.statusCode);
    this.providerKind = options.providerKind;
    this.isRetryable = options.isRetryable ?? isRetryableKind(this.kind, options.statusCode);
  }

  static override isInstance(value: unknown): value is ModelCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
