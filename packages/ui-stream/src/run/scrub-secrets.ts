import { REDACTED } from '@tiny/harness';

/** Shorter values are not scrubbed (a one-letter host value would redact every word holding it). */
export const MIN_SECRET_LENGTH = 6;

/** The strings of `values` worth scrubbing: every string leaf at least {@link MIN_SECRET_LENGTH} long, longest first. */
export function secretStrings(values: unknown, depth = 0, out: Set<string> = new Set()): string[] {
  if (typeof values === 'string') {
    if (values.length >= MIN_SECRET_LENGTH) out.add(values);
  } else if (typeof values === 'number' || typeof values === 'bigint') {
    const text = String(values);
    if (text.length >= MIN_SECRET_LENGTH) out.add(text);
  } else if (depth <= 16 && typeof values === 'object' && values !== null)
    for (const value of Object.values(values)) secretStrings(value, depth + 1, out);
  return [...out].sort((left, right) => right.length - left.length);
}

/**
 * `value` with every occurrence of each secret in its strings (keys included) replaced by
 * `[redacted]`; the same object when there is nothing to scrub.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') {
    let text: string = value;
    for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text as T;
  }
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, secrets, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [scrubSecrets(key, secrets), scrubSecrets(item, secrets, depth + 1)]),
  ) as T;
}
