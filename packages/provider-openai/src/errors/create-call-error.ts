import { type HttpFailure, type HttpLimits, parseRetryAfter, readBodyText } from '@tiny/provider-utils';
import type { OpenAICompatibleErrorKind } from './classify-call-error.js';
import { OpenAICompatibleCallError } from './openai-compatible-call-error.js';
import { readErrorBody } from './read-error-body.js';
import { redactSecret } from './redact-secret.js';

/** Who failed, and the secret to keep out of the error. @internal */
export interface ErrorContext {
  readonly provider: string;
  readonly secret?: string | undefined;
}

/** Bodies are kept for logs up to this many characters. */
const MAX_BODY_CHARS = 8192;

function requestIdOf(headers: Headers | undefined): string | undefined {
  return headers?.get('x-request-id') ?? headers?.get('request-id') ?? undefined;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Builds the error for an HTTP error status: the provider's message, type, code and param from
 * the body (any shape `readErrorBody` knows; a non-JSON body is used as the message, cut to 500
 * characters), the request id and `retry-after`. Retryable per `isRetryableStatus`.
 * @internal
 */
export async function errorFromResponse(
  response: Response,
  context: ErrorContext & { readonly limits?: HttpLimits | undefined },
): Promise<OpenAICompatibleCallError> {
  let text = '';
  try {
    // Only the head is kept, so an endless error body is cut rather than read.
    text = await readBodyText(
      response,
      { ...context.limits, maxResponseBytes: MAX_BODY_CHARS * 4 },
      { truncate: true },
    );
  } catch {
    // the body could not be read; the status still says enough
  }
  const facts = readErrorBody(tryParse(text));
  const fallback = text.trim() === '' ? undefined : text.trim().slice(0, 500);
  const providerMessage = redactSecret(facts?.message ?? fallback, context.secret);
  const requestId = requestIdOf(response.headers);
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  const message = `${context.provider} answered ${status}${providerMessage === undefined ? '' : `: ${providerMessage}`}${requestId === undefined ? '' : ` (request ${requestId})`}`;
  return new OpenAICompatibleCallError({
    message: redactSecret(message, context.secret),
    statusCode: response.status,
    responseBody: redactSecret(text.slice(0, MAX_BODY_CHARS), context.secret),
    provider: context.provider,
    providerMessage,
    errorType: facts?.type,
    errorCode: facts?.code,
    param: facts?.param,
    requestId,
    retryAfterMs: parseRetryAfter(response.headers),
  });
}

/**
 * Builds the error for an error object inside a 200 body or a stream event. `statusCode` is the
 * HTTP status the body came with (200); the payload's code is `errorCode`. A status-like payload
 * code (`500`) decides retryability; without one, a `server_error` type or code is retryable and
 * anything else is not (see `OpenAICompatibleCallError` for the kinds never retried).
 * @internal
 */
export function errorFromBody(
  body: unknown,
  raw: string,
  context: ErrorContext & {
    readonly where: 'response' | 'stream';
    readonly headers?: Headers | undefined;
    readonly httpStatus?: number | undefined;
  },
): OpenAICompatibleCallError {
  const facts = readErrorBody(body);
  const providerMessage = redactSecret(facts?.message, context.secret);
  const requestId = requestIdOf(context.headers);
  const status = context.httpStatus ?? 200;
  const retryable =
    facts?.status !== undefined ? undefined : facts?.type === 'server_error' || facts?.code === 'server_error';
  const where = context.where === 'stream' ? 'reported an error mid-stream' : 'returned an error';
  return new OpenAICompatibleCallError({
    message: redactSecret(
      `${context.provider} ${where}: ${providerMessage ?? 'no message'}${requestId === undefined ? '' : ` (request ${requestId})`}`,
      context.secret,
    ),
    statusCode: status,
    ...(retryable === undefined ? {} : { isRetryable: retryable }),
    responseBody: redactSecret(raw.slice(0, MAX_BODY_CHARS), context.secret),
    provider: context.provider,
    providerMessage,
    errorType: facts?.type,
    errorCode: facts?.code,
    param: facts?.param,
    requestId,
  });
}

/**
 * Builds the error for a failure that is not an error payload: the connection failed, dropped
 * mid-stream, the stream ended early, or the body could not be read or parsed. Retryable unless
 * `retryable` says otherwise; `kind` defaults to `server_error`. `httpStatus` is the status of a
 * response that had arrived (a stream's 200), absent when none did.
 * @internal
 */
export function transportError(
  what: string,
  cause: unknown,
  context: ErrorContext & {
    readonly retryable?: boolean | undefined;
    readonly headers?: Headers | undefined;
    readonly kind?: OpenAICompatibleErrorKind | undefined;
    readonly httpStatus?: number | undefined;
  },
): OpenAICompatibleCallError {
  const detail = describeCause(cause);
  const requestId = requestIdOf(context.headers);
  return new OpenAICompatibleCallError({
    message: redactSecret(
      `${context.provider} ${what}${detail === '' ? '' : `: ${detail}`}${requestId === undefined ? '' : ` (request ${requestId})`}`,
      context.secret,
    ),
    statusCode: context.httpStatus,
    isRetryable: context.retryable ?? true,
    kind: context.kind ?? 'server_error',
    provider: context.provider,
    requestId,
    cause,
  });
}

/**
 * Builds the error for a refusal of the shared HTTP plumbing (`HttpFailure`): a redirect not
 * followed, a size or time bound passed; its `kind`, retryability and status carried over.
 * @internal
 */
export function httpFailureError(
  failure: HttpFailure,
  context: ErrorContext & { readonly headers?: Headers | undefined; readonly httpStatus?: number | undefined },
): OpenAICompatibleCallError {
  const requestId = requestIdOf(context.headers);
  return new OpenAICompatibleCallError({
    message: redactSecret(
      `${context.provider} ${failure.message}${requestId === undefined ? '' : ` (request ${requestId})`}`,
      context.secret,
    ),
    statusCode: failure.statusCode ?? context.httpStatus,
    isRetryable: failure.retryable,
    kind: failure.kind,
    provider: context.provider,
    requestId,
    cause: failure,
  });
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return cause === undefined ? '' : String(cause);
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
  return `${cause.message}${inner}`;
}
