/**
 * The words of a failure's cause for an error message: an `Error`'s message with its own cause's
 * message in parentheses (`fetch failed (connect ECONNREFUSED ...)`), any other value as a string,
 * and `''` for `undefined`.
 */
export function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return cause === undefined ? '' : String(cause);
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
  return `${cause.message}${inner}`;
}
