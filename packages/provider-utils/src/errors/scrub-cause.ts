import { redactDeep, redactSecret, type Secrets } from './redact-secret.js';

/** How many causes deep {@link scrubCause} copies; deeper causes are left out. */
const MAX_CAUSE_DEPTH = 8;

/**
 * A copy of an error's `cause` chain with every secret scrubbed (see `redactSecret`): an `Error`
 * becomes an object of the same prototype (so `instanceof` and `name` still hold) whose `message`,
 * `stack`, own fields (`code`, ...), `errors` (an `AggregateError`'s) and `cause` are scrubbed
 * copies, causes past 8 levels left out; a string is scrubbed; any other value is a `redactDeep`
 * copy. What a fetch, a proxy or the platform wrote into a failure (undici's
 * `Headers.append: "Bearer sk-…"`, a wrapper quoting the request headers, a body stream's reset
 * message) never reaches the caller through `error.cause`. Never throws.
 */
export function scrubCause(cause: unknown, secrets: Secrets, depth = 0): unknown {
  if (typeof cause === 'string') return redactSecret(cause, secrets);
  if (typeof cause !== 'object' || cause === null) return cause;
  if (!(cause instanceof Error)) return redactDeep(cause, secrets);
  try {
    const copy = Object.create(Object.getPrototypeOf(cause) as object | null) as Record<string, unknown>;
    const define = (key: string, value: unknown) =>
      Object.defineProperty(copy, key, { value, enumerable: false, writable: true, configurable: true });
    for (const [key, value] of Object.entries(cause)) {
      if (key === 'cause' || key === 'errors') continue;
      Object.defineProperty(copy, redactSecret(key, secrets), {
        value: redactDeep(value, secrets),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    define('name', redactSecret(String(cause.name), secrets));
    define('message', redactSecret(String(cause.message), secrets));
    if (typeof cause.stack === 'string') define('stack', redactSecret(cause.stack, secrets));
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors) && depth < MAX_CAUSE_DEPTH)
      define(
        'errors',
        errors.slice(0, 16).map((item) => scrubCause(item, secrets, depth + 1)),
      );
    if (cause.cause !== undefined && depth < MAX_CAUSE_DEPTH)
      define('cause', scrubCause(cause.cause, secrets, depth + 1));
    return copy;
  } catch {
    // A getter that throws, a proxy: only a plain scrubbed description survives.
    return new Error(redactSecret(String((cause as { message?: unknown }).message ?? 'an error'), secrets));
  }
}
