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
