/**
 * Bounds on what a server may send back. Every `@tiny` HTTP adapter applies them by default;
 * pass `limits` to its factory to change one (`Infinity` turns a bound off). A passed bound ends
 * the call with the adapter's call error of kind `response_too_large` or `response_timeout`.
 */
export interface HttpLimits {
  /**
   * The largest SSE line or event, in bytes, counted from the end of the previous event or
   * comment. Default 4 MiB: a streamed chunk is a few hundred bytes, and even a whole completion
   * sent as one event (servers that ignore `stream: true`) fits many times over.
   */
  readonly maxEventBytes?: number | undefined;
  /**
   * The largest response, in bytes: a whole stream, or a JSON body. Default 64 MiB, far above the
   * longest real completion (a 128k-token answer streams as roughly 30 MiB of SSE).
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * How long a stream may go without a meaningful event, in milliseconds (a JSON body: without a
   * byte). SSE comments and keep-alive events (Anthropic's `ping`) do not reset it, so a server
   * that sends only keep-alives is cut off. Default 120 000 (2 minutes): past any pause between
   * tokens of a hosted model, and past the first-token delay of a long prompt on a fast server;
   * raise it for CPU inference of long prompts, where prompt processing can take longer.
   */
  readonly idleTimeoutMs?: number | undefined;
  /**
   * How long one response may take in all, in milliseconds, from the request's start (the wait
   * for headers included, so a server that sends only `103 Early Hints` or nothing at all is cut
   * off) to the end of its body. Default 1 800 000 (30 minutes): a server that trickles meaningful
   * events forever still ends; a long local generation fits (raise it for slower ones).
   */
  readonly totalTimeoutMs?: number | undefined;
}

/** Every bound of {@link HttpLimits} resolved to a number. */
export interface ResolvedHttpLimits {
  readonly maxEventBytes: number;
  readonly maxResponseBytes: number;
  readonly idleTimeoutMs: number;
  readonly totalTimeoutMs: number;
}

/** The defaults of {@link HttpLimits}. */
export const DEFAULT_HTTP_LIMITS: ResolvedHttpLimits = Object.freeze({
  maxEventBytes: 4 * 1024 * 1024,
  maxResponseBytes: 64 * 1024 * 1024,
  idleTimeoutMs: 120_000,
  totalTimeoutMs: 1_800_000,
});

const LIMIT_KEYS = ['maxEventBytes', 'maxResponseBytes', 'idleTimeoutMs', 'totalTimeoutMs'] as const;

/**
 * Why `limits` is not a valid {@link HttpLimits}, or undefined when it is: each bound must be a
 * positive number (`Infinity` allowed), and no other key is taken. Adapters call it when they are
 * created, to report a wrong bound in their own error.
 */
export function checkHttpLimits(limits: unknown): string | undefined {
  if (limits === undefined) return undefined;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    return `limits must be an object such as { idleTimeoutMs: 300000 }, got ${JSON.stringify(limits) ?? String(limits)}`;
  for (const [key, value] of Object.entries(limits)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key))
      return `limits.${key} is not a bound; the bounds are ${LIMIT_KEYS.join(', ')}`;
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0)
      return `limits.${key} must be a positive number (Infinity turns it off), got ${JSON.stringify(value) ?? String(value)}`;
  }
  return undefined;
}

/** The bounds of `limits`, defaults filled in; an invalid value falls back to its default. @internal */
export function resolveHttpLimits(limits?: HttpLimits | undefined): ResolvedHttpLimits {
  const pick = (key: (typeof LIMIT_KEYS)[number]): number => {
    const value = limits?.[key];
    return typeof value === 'number' && value > 0 ? value : DEFAULT_HTTP_LIMITS[key];
  };
  return {
    maxEventBytes: pick('maxEventBytes'),
    maxResponseBytes: pick('maxResponseBytes'),
    idleTimeoutMs: pick('idleTimeoutMs'),
    totalTimeoutMs: pick('totalTimeoutMs'),
  };
}
