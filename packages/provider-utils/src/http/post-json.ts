import { HttpFailure } from '../errors/http-failure.js';
import { type HttpLimits, resolveHttpLimits } from '../limits/http-limits.js';
import { markRequestStart } from '../limits/request-start.js';

/** One POST of a JSON body. */
export interface PostJsonOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Serialised with `JSON.stringify`. */
  readonly body: unknown;
  readonly signal?: AbortSignal | undefined;
  /**
   * The `fetch` to call (a user's custom fetch, a proxy's, or `globalThis.fetch`). It is called
   * with `redirect: 'manual'`; a custom fetch that follows redirects anyway has its answer refused
   * when it came from another origin (see {@link postJson}).
   */
  readonly fetch: typeof globalThis.fetch;
  /**
   * The bounds of the exchange (see {@link HttpLimits}): `totalTimeoutMs` runs from the request's
   * start, so a server that never sends final headers (a flood of `103 Early Hints`, a stall)
   * cannot hold the call past it, and the reading of the body (`readSseEvents`, `readBodyText`)
   * gets only what is left of it.
   */
  readonly limits?: HttpLimits | undefined;
}

/** setTimeout's largest delay; a longer bound is not timed while waiting for headers. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Merges header layers left to right, names compared case-insensitively (the last spelling
 * wins); an `undefined` value removes the header.
 */
export function mergeHeaders(
  ...layers: (Readonly<Record<string, string | undefined>> | undefined)[]
): Record<string, string> {
  const merged = new Map<string, [string, string | undefined]>();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) merged.set(name.toLowerCase(), [name, value]);
  }
  const result: Record<string, string> = {};
  for (const [name, value] of merged.values()) if (value !== undefined) result[name] = value;
  return result;
}

/** Same-origin `307`/`308` hops followed before a redirect is refused. */
const MAX_SAME_ORIGIN_HOPS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * POSTs `options.body` as JSON and returns the response, whatever its status.
 *
 * Redirects are never followed to another origin: `fetch` is called with `redirect: 'manual'`, a
 * `307`/`308` to the same origin (scheme, host and port) is followed with the same method, headers
 * and body (up to 5 hops), and any other redirect is refused before anything is sent to its
 * target: one to another origin, a `301`/`302`/`303` (which would turn the POST into a GET), a
 * redirect without a usable `Location`, or a browser's opaque redirect. A response whose `url`
 * shows that a custom `fetch` followed a redirect to another origin on its own is refused too, so
 * another host's answer is never read as the model's.
 *
 * @param noResponse - builds the adapter's own error (retryable, in its error class) for a call
 *   that got no response at all: the connection was refused, reset or timed out. It receives a
 *   message naming the URL and the underlying fetch error.
 * @throws the signal's reason when the call is aborted (before or during the request).
 * @throws what `noResponse` returns when no response arrives.
 * @throws {HttpFailure} of kind `redirect` for a refused redirect (not retryable).
 * @throws {HttpFailure} of kind `response_timeout` when no final response arrived within
 *   `limits.totalTimeoutMs` of the request's start (retryable).
 */
export async function postJson(
  options: PostJsonOptions,
  noResponse: (message: string, cause: unknown) => Error,
): Promise<Response> {
  const { signal } = options;
  const { totalTimeoutMs } = resolveHttpLimits(options.limits);
  const startedAt = Date.now();
  const body = JSON.stringify(options.body);
  let url = options.url;
  for (let hop = 0; ; hop += 1) {
    if (signal?.aborted) throw signal.reason;
    const response = await fetchWithin(options, url, body, startedAt + totalTimeoutMs, totalTimeoutMs, noResponse);
    const next = redirectTarget(response, url, hop);
    if (next === undefined) {
      markRequestStart(response.body, startedAt);
      return response;
    }
    url = next;
  }
}

/**
 * One `fetch`, aborted (its socket closed) when the headers have not arrived by `deadline`: an
 * `HttpFailure` of kind `response_timeout` then, whatever the server sent before (1xx responses
 * included). The caller's signal still aborts it with its own reason.
 */
async function fetchWithin(
  options: PostJsonOptions,
  url: string,
  body: string,
  deadline: number,
  totalTimeoutMs: number,
  noResponse: (message: string, cause: unknown) => Error,
): Promise<Response> {
  const { signal } = options;
  const timeout = (): HttpFailure =>
    new HttpFailure({
      kind: 'response_timeout',
      retryable: true,
      limit: totalTimeoutMs,
      message: `${url} sent no response within ${totalTimeoutMs} ms (limits.totalTimeoutMs)`,
    });
  const wait = deadline - Date.now();
  if (wait <= 0) throw timeout();
  const timed = Number.isFinite(wait) && wait <= MAX_TIMER_MS;
  const controller = timed ? new AbortController() : undefined;
  let timedOut = false;
  const forward = (): void => controller?.abort(signal?.reason);
  if (controller !== undefined) {
    if (signal?.aborted) throw signal.reason;
    signal?.addEventListener('abort', forward, { once: true });
  }
  const timer = timed
    ? setTimeout(() => {
        timedOut = true;
        controller?.abort(timeout());
      }, wait)
    : undefined;
  const effective = controller?.signal ?? signal;
  try {
    return await options.fetch(url, {
      method: 'POST',
      headers: options.headers,
      body,
      redirect: 'manual',
      ...(effective === undefined ? {} : { signal: effective }),
    });
  } catch (error) {
    signal?.removeEventListener('abort', forward);
    if (signal?.aborted) throw signal.reason;
    if (timedOut) throw timeout();
    throw noResponse(`request to ${url} failed`, error);
  } finally {
    // The caller's signal keeps aborting the body being read: its listener stays.
    clearTimeout(timer);
  }
}

/** The URL to follow for a same-origin 307/308; undefined for a response that is no redirect. */
function redirectTarget(response: Response, url: string, hop: number): string | undefined {
  const origin = new URL(url).origin;
  const refuse = (status: number | undefined, location: string | undefined, why: string): never => {
    void response.body?.cancel().catch(() => undefined);
    throw new HttpFailure({
      kind: 'redirect',
      retryable: false,
      statusCode: status,
      location,
      message: `${url} answered ${why}; redirects are not followed to another origin or with another method (set the base URL to the final address)`,
    });
  };
  if (response.type === 'opaqueredirect') return refuse(undefined, undefined, 'with a redirect (opaque)');
  if (REDIRECT_STATUSES.has(response.status)) {
    const header = response.headers.get('location');
    let target: URL | undefined;
    try {
      target = header === null ? undefined : new URL(header, url);
    } catch {
      target = undefined;
    }
    const location = target?.href ?? header ?? undefined;
    const named = `${response.status} to ${location ?? '(no Location)'}`;
    if (target === undefined || (target.protocol !== 'http:' && target.protocol !== 'https:'))
      return refuse(response.status, location, `${named}, not a usable http(s) URL`);
    if (target.origin !== origin) return refuse(response.status, location, `${named}, another origin`);
    if (response.status !== 307 && response.status !== 308)
      return refuse(response.status, location, `${named}, which would turn the POST into a GET`);
    if (hop >= MAX_SAME_ORIGIN_HOPS) return refuse(response.status, location, `${named}, after ${hop} redirects`);
    void response.body?.cancel().catch(() => undefined);
    return target.href;
  }
  // A custom fetch that ignored `redirect: 'manual'` and followed on its own.
  if (response.url !== '' && response.url !== url) {
    let followed: URL | undefined;
    try {
      followed = new URL(response.url);
    } catch {
      followed = undefined;
    }
    if (followed !== undefined && followed.origin !== origin)
      return refuse(
        response.status,
        followed.href,
        `through a redirect to ${followed.href}, another origin, that the fetch followed`,
      );
  }
  return undefined;
}
