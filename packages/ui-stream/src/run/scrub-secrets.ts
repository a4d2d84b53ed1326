/** Shorter values are not scrubbed (a one-letter host value would redact every word holding it). */
export const MIN_SECRET_LENGTH = 6;

/** How many objects and arrays of the values are walked at most (a bound on work, never on depth). */
const MAX_NODES = 100_000;

/**
 * The strings of `values` worth scrubbing: every string or number leaf at least
 * {@link MIN_SECRET_LENGTH} long, at any depth (an explicit stack, no recursion; shared and cyclic
 * objects are read once), longest first.
 */
export function secretStrings(values: unknown): string[] {
  const out = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [values];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.length >= MIN_SECRET_LENGTH) out.add(value);
    } else if (typeof value === 'number' || typeof value === 'bigint') {
      const text = String(value);
      if (text.length >= MIN_SECRET_LENGTH) out.add(text);
    } else if (typeof value === 'object' && value !== null && !seen.has(value) && seen.size < MAX_NODES) {
      seen.add(value);
      try {
        for (const item of Object.values(value)) stack.push(item);
      } catch {
        // A value that cannot be read (a throwing getter or proxy) holds nothing to scrub.
      }
    }
  }
  return [...out].sort((left, right) => right.length - left.length);
}
