const marker = Symbol.for('tiny.provider-utils.HttpFailure');

/**
 * What a bounded HTTP exchange refused:
 * - `redirect`: the server answered with a redirect the adapter does not follow (to another
 *   origin, a method-changing 301/302/303, an opaque redirect, or too many hops);
 * - `response_too_large`: one SSE line or event, the whole stream or a JSON body passed its size bound;
 * - `response_timeout`: no meaningful event (or body bytes) within the idle bound, or the whole
 *   response took longer than its total bound.
 */
export type HttpFailureKind = 'redirect' | 'response_too_large' | 'response_timeout';

/**
 * A refusal of the shared HTTP plumbing (`postJson`, `readSseEvents`, `readBodyText`). It is a
 * signal to the adapter, not an error for users: every `@tiny` adapter converts it into its own
 * call error (a `ModelCallError`) with the same `kind`, keeping this as `cause`. It carries no
 * request header or body, so it never holds a credential or a prompt.
 */
export class HttpFailure extends Error {
  readonly [marker] = true;
  /** What was refused. */
  readonly kind: HttpFailureKind;
  /** Whether the same request may succeed when sent again (timeouts yes; redirects and size bounds no). */
  readonly retryable: boolean;
  /** The HTTP status of a refused redirect. */
  readonly statusCode: number | undefined;
  /** The `Location` of a refused redirect, resolved against the request URL, when it had one. */
  readonly location: string | undefined;
  /** The bound that was passed (bytes or milliseconds), for size and time refusals. */
  readonly limit: number | undefined;

  constructor(options: {
    kind: HttpFailureKind;
    message: string;
    retryable: boolean;
    statusCode?: number | undefined;
    location?: string | undefined;
    limit?: number | undefined;
  }) {
    super(options.message);
    this.name = 'HttpFailure';
    this.kind = options.kind;
    this.retryable = options.retryable;
    this.statusCode = options.statusCode;
    this.location = options.location;
    this.limit = options.limit;
  }

  /** True for an `HttpFailure` from any copy of this package. */
  static isInstance(value: unknown): value is HttpFailure {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
