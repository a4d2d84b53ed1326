/** One POST of a JSON body. */
export interface PostJsonOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Serialised with `JSON.stringify`. */
  readonly body: unknown;
  readonly signal?: AbortSignal | undefined;
  /** The `fetch` to call (a user's custom fetch, a proxy's, or `globalThis.fetch`). */
  readonly fetch: typeof globalThis.fetch;
}

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

/**
 * POSTs `options.body` as JSON and returns the response, whatever its status.
 *
 * @param noResponse - builds the adapter's own error (retryable, in its error class) for a call
 *   that got no response at all: the connection was refused, reset or timed out. It receives a
 *   message naming the URL and the underlying fetch error.
 * @throws the signal's reason when the call is aborted (before or during the request).
 * @throws what `noResponse` returns when no response arrives.
 */
export async function postJson(
  options: PostJsonOptions,
  noResponse: (message: string, cause: unknown) => Error,
): Promise<Response> {
  const { signal } = options;
  if (signal?.aborted) throw signal.reason;
  try {
    return await options.fetch(options.url, {
      method: 'POST',
      headers: options.headers,
      body: JSON.stringify(options.body),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw noResponse(`request to ${options.url} failed`, error);
  }
}
