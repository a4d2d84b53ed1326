import { redactDeep, redactSecret, type Secrets } from './redact-secret.js';

/** How many causes deep {@link scrubCause} copies; deeper causes are left out. */
const MAX_CAUSE_DEPTH = 8;

/** How many causes deep {@link holdsSecret} looks before it takes a chain as holding one. */
const MAX_LOOK_DEPTH = 32;

/** The fields of an error read as its own: name, message, stack, `cause` and `errors` aside. */
const ERROR_FIELDS = new Set(['name', 'message', 'stack', 'cause', 'errors']);

/**
 * Whether `value` is JSON-like all the way down: plain objects and arrays whose fields are all
 * enumerable string keys, and primitives. A `Headers`, a `Map`, a class instance, a symbol key or
 * a hidden field is not: a secret in it would not be seen, so it counts as holding one.
 */
function jsonLike(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_LOOK_DEPTH) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  for (const key of Object.getOwnPropertyNames(value)) {
    if (Array.isArray(value) && key === 'length') continue;
    const field = Object.getOwnPropertyDescriptor(value, key);
    if (field === undefined || !field.enumerable || !('value' in field)) return false;
    if (!jsonLike(field.value, depth + 1)) return false;
  }
  return true;
}

/**
 * Whether a cause chain spells a secret anywhere; a chain too deep or unreadable counts as one, and
 * so does one holding a field that is not JSON-like (see {@link jsonLike}): the scrubbed copy leaves
 * such fields out.
 */
function holdsSecret(value: unknown, secrets: Secrets, depth: number): boolean {
  if (typeof value === 'string') return redactSecret(value, secrets) !== value;
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_LOOK_DEPTH) return true;
  try {
    if (!(value instanceof Error)) {
      if (!jsonLike(value, depth)) return true;
      return JSON.stringify(redactDeep(value, secrets)) !== JSON.stringify(value);
    }
    if (Object.getOwnPropertySymbols(value).length > 0) return true;
    for (const key of Object.getOwnPropertyNames(value)) {
      if (!ERROR_FIELDS.has(key) && Object.getOwnPropertyDescriptor(value, key)?.enumerable !== true) return true;
    }
    const own = Object.entries(value).filter(([key]) => key !== 'cause' && key !== 'errors');
    const errors = (value as { errors?: unknown }).errors;
    return (
      holdsSecret(String(value.name), secrets, depth) ||
      holdsSecret(String(value.message), secrets, depth) ||
      holdsSecret(value.stack, secrets, depth) ||
      own.some(([key, field]) => holdsSecret(key, secrets, depth) || holdsSecret(field, secrets, depth + 1)) ||
      (Array.isArray(errors) && errors.some((item) => holdsSecret(item, secrets, depth + 1))) ||
      holdsSecret(value.cause, secrets, depth + 1)
    );
  } catch {
    return true;
  }
}

/**
 * A copy of an error's `cause` chain with every secret scrubbed (see `redactSecret`): an `Error`
 * becomes an object of the same prototype (so `instanceof` and `name` still hold) whose `message`,
 * `stack`, own fields (`code`, ...), `errors` (an `AggregateError`'s) and `cause` are scrubbed
 * copies, causes past 8 levels left out; a string is scrubbed; any other value is a `redactDeep`
 * copy. What a fetch, a proxy or the platform wrote into a failure (undici's
 * `Headers.append: "Bearer sk-…"`, a wrapper quoting the request headers, a body stream's reset
 * message) never reaches the caller through `error.cause`. Hidden fields (not enumerable, or
 * keyed by a symbol) are left out of the copy, and a field that is not JSON-like (a `Headers`, a
 * `Map`, a class instance) becomes its scrubbed text (`[object Headers]`). A chain that spells no
 * secret and holds only JSON-like fields (or one without a secret of four characters or more) is
 * returned as it is. Never throws.
 */
export function scrubCause(cause: unknown, secrets: Secrets, depth = 0): unknown {
  // No secret to keep out (none given, or only ones too short to redact): the cause as it is.
  const list = typeof secrets === 'string' ? [secrets] : (secrets ?? []);
  if (list.every((secret) => secret.length < 4)) return cause;
  if (depth === 0 && !holdsSecret(cause, secrets, 0)) return cause;
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
        // A field that is not JSON-like (a `Headers`, a `Map`) may hide a secret: its text only.
        value: jsonLike(value, 0) ? redactDeep(value, secrets) : redactSecret(describe(value), secrets),
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

/** A value's text for a scrubbed copy: `String(value)`, or its tag when that throws. */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
