import { parseRetryAfter } from './parse-retry-after.js';

/** `1s`, `6m0s`, `20ms`, `1h2m3.5s`: the reset durations of OpenAI's `x-ratelimit-reset-*` headers. */
function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(?:\d+(?:\.\d+)?(?:h|ms|m|s))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) {
    const value = Number(amount);
    total += unit === 'h' ? value * 3_600_000 : unit === 'm' ? value * 60_000 : unit === 's' ? value * 1000 : value;
  }
  return total;
}

/**
 * How long a provider asked callers to wait before retrying, in milliseconds, the same way for
 * every adapter: `retry-after-ms` or `retry-after` (seconds or an HTTP date) when sent; otherwise,
 * among the rate limits the answer says are exhausted (`remaining` is `0`), the earliest reset:
 * Anthropic's `anthropic-ratelimit-<limit>-remaining` / `-reset` (an RFC 3339 time) and OpenAI's
 * `x-ratelimit-remaining-<limit>` / `x-ratelimit-reset-<limit>` (a duration such as `6m0s`).
 * `undefined` when nothing says. The delay is clamped to 0 ..
 * {@link MAX_RETRY_AFTER_MS} (one hour), so no answer can park a caller for days.
 */
export function retryDelay(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const wait = readDelay(headers, now);
  return wait === undefined ? undefined : Math.min(Math.max(0, wait), MAX_RETRY_AFTER_MS);
}

/** The longest wait an answer may ask for: a larger one (`Retry-After: 99999999999`) is clamped to it. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

function readDelay(headers: Headers | undefined, now: number): number | undefined {
  if (headers === undefined) return undefined;
  const after = parseRetryAfter(headers, now);
  if (after !== undefined) return after;
  const all = new Map<string, string>();
  headers.forEach((value, name) => {
    all.set(name.toLowerCase(), value);
  });
  let earliest: number | undefined;
  const consider = (wait: number | undefined) => {
    if (wait === undefined || !Number.isFinite(wait)) return;
    const bounded = Math.max(0, wait);
    earliest = earliest === undefined ? bounded : Math.min(earliest, bounded);
  };
  for (const [name, value] of all) {
    if (value.trim() !== '0') continue;
    const anthropic = /^anthropic-ratelimit-(.+)-remaining$/.exec(name);
    if (anthropic !== null) {
      const reset = all.get(`anthropic-ratelimit-${anthropic[1]}-reset`);
      const at = reset === undefined ? Number.NaN : Date.parse(reset);
      if (!Number.isNaN(at)) consider(at - now);
      continue;
    }
    const openai = /^x-ratelimit-remaining-(.+)$/.exec(name);
    if (openai !== null) {
      const reset = all.get(`x-ratelimit-reset-${openai[1]}`);
      if (reset !== undefined) consider(parseDuration(reset));
    }
  }
  return earliest;
}
