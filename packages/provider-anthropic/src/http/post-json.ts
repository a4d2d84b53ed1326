import { type ErrorContext, transportError } from '../errors/create-call-error.js';

/** One POST of a JSON body. @internal */
export interface PostOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal?: AbortSignal | undefined;
  readonly fetch: typeof globalThis.fetch;
}

/**
 * Merges header layers left to right, names compared case-insensitively (the last spelling
 * wins); an `undefined` value removes the header. @internal
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
 * POSTs `body` as JSON and returns the response, whatever its status.
 *
 * @throws the signal's reason when the call is aborted (before or during the request).
 * @throws {AnthropicCallError} (retryable) when no response arrives: the connection was
 *   refused, reset or timed out.
 * @internal
 */
export async function postJson(options: PostOptions, context: ErrorContext): Promise<Response> {
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
    throw transportError(`request to ${options.url} failed`, error, context);
  }
}
