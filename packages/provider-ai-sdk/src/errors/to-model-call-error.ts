import { ModelCallError, type ModelCallErrorKind } from '@tiny/llm';
import {
  classifyProviderError,
  deriveRetry,
  readErrorEnvelope,
  redactSecret,
  tryParseJson,
} from '@tiny/provider-utils';

const apiCallMarker = Symbol.for('vercel.ai.error.AI_APICallError');

function asRecord(value: unknown): Record<string | symbol, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string | symbol, unknown>) : undefined;
}

/** True for the AI SDK's `APICallError` (by its global marker, so any copy of `@ai-sdk/provider` counts). @internal */
export function isApiCallError(error: unknown): boolean {
  return asRecord(error)?.[apiCallMarker] === true;
}

/** The AI SDK's response headers (a plain record) as `Headers`, for `deriveRetry`. */
function headersOf(value: unknown): Headers | undefined {
  const record = asRecord(value);
  if (record === undefined) return undefined;
  const headers = new Headers();
  for (const [name, text] of Object.entries(record)) if (typeof text === 'string') headers.set(name, text);
  return headers;
}

/**
 * AI SDK errors that say the response body was wrong (an unparsable or invalid stream chunk or
 * body), each the shared kind `invalid_chunk`, as in the native adapters.
 */
const invalidBodyErrors = new Set(['AI_JSONParseError', 'AI_TypeValidationError', 'AI_InvalidResponseDataError']);

/**
 * Turns what an AI SDK model threw or streamed into a `ModelCallError` of the shared taxonomy, read
 * the same way as the native adapters (`classifyProviderError` and `deriveRetry` of
 * `@tiny/provider-utils`):
 * - an `APICallError`: its status and its body's error envelope give the kind and the inner
 *   message, added to the SDK's when it lacks it (the SDK's own
 *   `isRetryable` is not used: retryability follows the kind); `retry-after` and rate-limit
 *   headers give `retryAfterMs`; `providerKind` is the body's error type or code;
 * - an error object streamed as an `error` part (`{type: 'overloaded_error', message}`): its kind as
 *   for an error event of a native adapter (an unknown one is a retryable `server_error`);
 * - `AI_JSONParseError`, `AI_TypeValidationError`, `AI_InvalidResponseDataError`: the error object
 *   the invalid chunk held, when it is one (as above), else `invalid_chunk` (retryable), the SDK's
 *   error name as `providerKind`;
 * - an error part that is JSON text holding such an object: read as the object;
 * - a `ModelCallError` (a real `Error` carrying tiny's marker; a plain object carrying the marker
 *   is read as an error object, never trusted) kept as it is; anything else `unknown`, not retryable.
 * Each of `secrets` is replaced by `[redacted]` in the message and body. The original is the
 * `cause` (unscrubbed: do not log it).
 * @internal
 */
export function toModelCallError(error: unknown, provider: string, secrets: readonly string[] = []): ModelCallError {
  const scrub = <T extends string | undefined>(text: T): T =>
    secrets.reduce<T>((out, secret) => redactSecret(out, secret), text);
  // tiny's markers are trusted on a real Error only: a plain object carrying them is re-classified.
  const tiny = ModelCallError.isInstance(error) && error instanceof Error;
  if (tiny && secrets.length === 0) return error;
  const record = asRecord(error);
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  if (isApiCallError(error)) {
    const statusCode = typeof record?.statusCode === 'number' ? record.statusCode : undefined;
    const responseBody = typeof record?.responseBody === 'string' ? record.responseBody : undefined;
    const facts = readErrorEnvelope(tryParseJson(responseBody ?? ''));
    const { kind, providerKind } = classifyProviderError({
      statusCode,
      type: facts?.type,
      code: facts?.code,
      param: facts?.param,
      message: facts?.message ?? message,
    });
    const inner = facts?.message !== undefined && !message.includes(facts.message) ? ` (${facts.message})` : '';
    return new ModelCallError({
      message: scrub(`${provider}: ${message}${inner}`),
      kind,
      providerKind,
      statusCode,
      ...deriveRetry(kind, statusCode, headersOf(record?.responseHeaders)),
      responseBody: scrub(responseBody),
      provider,
      cause: error,
    });
  }
  if (tiny) {
    return new ModelCallError({
      message: scrub(error.message),
      kind: error.kind,
      providerKind: error.providerKind,
      statusCode: error.statusCode,
      isRetryable: error.isRetryable,
      retryAfterMs: error.retryAfterMs,
      responseBody: scrub(error.responseBody),
      provider,
      cause: error,
    });
  }
  const name = error instanceof Error ? error.name : undefined;
  // A chunk the SDK could not validate may be an error object in an envelope it does not know
  // (llama.cpp's bare {code, message, type} in an Anthropic `error` event): read it as one.
  const invalidValue = name !== undefined && invalidBodyErrors.has(name) ? (record?.value ?? record?.data) : undefined;
  const carried = invalidValue === undefined ? undefined : asRecord(invalidValue);
  // An error part that is JSON text (`'{"type":"overloaded_error",...}'`) is read like the object.
  const parsed = typeof error === 'string' ? asRecord(tryParseJson(error)) : undefined;
  const object = carried ?? parsed ?? (!(error instanceof Error) ? record : undefined);
  if (object !== undefined) {
    const facts = readErrorEnvelope(object.error === undefined ? { error: object } : object);
    if (facts !== undefined && (facts.message !== undefined || facts.type !== undefined)) {
      const { kind, providerKind } = classifyProviderError({
        payloadStatus: facts.status,
        type: facts.type,
        code: facts.code,
        message: facts.message,
        inBody: true,
      });
      return classified(kind, providerKind, facts.status);
    }
  }
  if (name !== undefined && invalidBodyErrors.has(name)) return classified('invalid_chunk', name);
  return classified('unknown', name);

  function classified(kind: ModelCallErrorKind, providerKind: string | undefined, statusCode?: number) {
    return new ModelCallError({
      message: scrub(`${provider}: ${message}`),
      kind,
      providerKind,
      statusCode,
      ...deriveRetry(kind, statusCode),
      provider,
      cause: error,
    });
  }
}
