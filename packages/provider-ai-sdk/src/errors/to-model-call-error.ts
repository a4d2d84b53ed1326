import { ModelCallError } from '@tiny/llm';

const apiCallMarker = Symbol.for('vercel.ai.error.AI_APICallError');

function asRecord(value: unknown): Record<string | symbol, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string | symbol, unknown>) : undefined;
}

/** True for the AI SDK's `APICallError` (by its global marker, so any copy of `@ai-sdk/provider` counts). @internal */
export function isApiCallError(error: unknown): boolean {
  return asRecord(error)?.[apiCallMarker] === true;
}

function header(headers: unknown, name: string): string | undefined {
  for (const [key, value] of Object.entries(asRecord(headers) ?? {})) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. @internal */
export function retryAfterOf(headers: unknown, now: number = Date.now()): number | undefined {
  const milliseconds = Number(header(headers, 'retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Turns what an AI SDK model threw or streamed into a `ModelCallError`: an `APICallError` keeps its
 * message, `statusCode`, `isRetryable`, `responseBody` and the `retry-after` of its response
 * headers; anything else is a non-retryable error with its message. Each of `secrets` is replaced
 * by `[redacted]` in the message and body. The original is the `cause` (unscrubbed: do not log it).
 * @internal
 */
export function toModelCallError(error: unknown, provider: string, secrets: readonly string[] = []): ModelCallError {
  const scrub = <T extends string | undefined>(text: T): T =>
    text === undefined
      ? text
      : (secrets.reduce<string>(
          (out, secret) => (secret.length < 4 ? out : out.split(secret).join('[redacted]')),
          text,
        ) as T);
  if (ModelCallError.isInstance(error) && secrets.length === 0) return error;
  const record = asRecord(error);
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  if (isApiCallError(error)) {
    const statusCode = typeof record?.statusCode === 'number' ? record.statusCode : undefined;
    return new ModelCallError({
      message: scrub(`${provider}: ${message}`),
      statusCode,
      isRetryable: record?.isRetryable === true,
      responseBody: scrub(typeof record?.responseBody === 'string' ? record.responseBody : undefined),
      provider,
      retryAfterMs: retryAfterOf(record?.responseHeaders),
      cause: error,
    });
  }
  return new ModelCallError({
    message: scrub(`${provider}: ${message}`),
    provider,
    isRetryable: ModelCallError.isInstance(error) ? error.isRetryable : false,
    cause: error,
  });
}
