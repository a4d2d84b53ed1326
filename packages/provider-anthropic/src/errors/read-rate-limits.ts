import { parseRetryAfter } from '@tiny/provider-utils';

/** Every `anthropic-ratelimit-*` header, names lower-cased. @internal */
export function readRateLimits(headers: Headers | undefined): Record<string, string> {
  const limits: Record<string, string> = {};
  headers?.forEach((value, name) => {
    if (name.toLowerCase().startsWith('anthropic-ratelimit-')) limits[name.toLowerCase()] = value;
  });
  return limits;
}

/**
 * How long to wait: `retry-after` (or `retry-after-ms`) when sent; otherwise, for each exhausted
 * limit (`anthropic-ratelimit-<limit>-remaining: 0`), the time until its RFC 3339
 * `anthropic-ratelimit-<limit>-reset`, the earliest of them. `undefined` when nothing says.
 * @internal
 */
export function retryDelay(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const after = parseRetryAfter(headers, now);
  if (after !== undefined) return after;
  let earliest: number | undefined;
  const limits = readRateLimits(headers);
  for (const [name, value] of Object.entries(limits)) {
    if (!name.endsWith('-remaining') || value.trim() !== '0') continue;
    const reset = limits[`${name.slice(0, -'-remaining'.length)}-reset`];
    const at = reset === undefined ? Number.NaN : Date.parse(reset);
    if (Number.isNaN(at)) continue;
    const wait = Math.max(0, at - now);
    earliest = earliest === undefined ? wait : Math.min(earliest, wait);
  }
  return earliest;
}
