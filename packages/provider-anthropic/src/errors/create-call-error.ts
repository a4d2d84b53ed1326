import { asNonEmptyString, asRecord, type HttpFailure, type HttpLimits, readBodyText } from '@tiny/provider-utils';
import { AnthropicCallError } from './anthropic-call-error.js';
import { classifyError } from './classify-error.js';
import { readRateLimits, retryDelay } from './read-rate-limits.js';
import { redactSecret } from './redact-secret.js';

/** Who failed, and the secret to keep out of the error. @internal */
export interface ErrorContext {
  readonly provider: string;
  readonly secret?: string | undefined;
}

/** Bodies are kept for logs up to this many characters. */
const MAX_BODY_CHARS = 8192;

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `{"type":"error","error":{"type","message"},"request_id"}`, or the OpenAI-style `{"error":{...}}` some local servers send. */
function readBody(body: unknown): { type?: string; message?: string; requestId?: string } {
  const record = asRecord(body);
  const error = asRecord(record?.error);
  const message = asNonEmptyString(error?.message) ?? (typeof record?.error === 'string' ? record.error : undefined);
  return { type: asNonEmptyString(error?.type), message, requestId: asNonEmptyString(record?.request_id) };
}

function suffix(requestId: string | undefined): string {
  return requestId === undefined ? '' : ` (request ${requestId})`;
}

/**
 * Builds the error for an HTTP error status: the API's error type and message (a non-JSON body is
 * used as the message, cut to 500 characters), its kind, the request id, the rate-limit headers
 * and the delay before a retry.
 * @internal
 */
export async function errorFromResponse(
  response: Response,
  context: ErrorContext & { readonly limits?: HttpLimits | undefined },
): Promise<AnthropicCallError> {
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
  const facts = readBody(tryParse(text));
  const fallback = text.trim() === '' ? undefined : text.trim().slice(0, 500);
  const providerMessage = redactSecret(facts.message ?? fallback, context.secret);
  const requestId = response.headers.get('request-id') ?? facts.requestId;
  const { kind, retryable } = classifyError(facts.type, response.status);
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  return new AnthropicCallError({
    message: redactSecret(
      `${context.provider} answered ${status}${providerMessage === undefined ? '' : `: ${providerMessage}`}${suffix(requestId)}`,
      context.secret,
    ),
    kind,
    statusCode: response.status,
    isRetryable: retryable,
    responseBody: redactSecret(text.slice(0, MAX_BODY_CHARS), context.secret),
    provider: context.provider,
    errorType: facts.type,
    providerMessage,
    requestId,
    retryAfterMs: retryDelay(response.headers),
    rateLimits: readRateLimits(response.headers),
  });
}

/**
 * Builds the error for an `error` event in a stream (or an error body with status 200). The kind
 * comes from `error.type`: an `overloaded_error` mid-stream is retryable, as it is over HTTP.
 * @internal
 */
export function errorFromEvent(
  body: unknown,
  raw: string,
  context: ErrorContext & { readonly headers?: Headers | undefined },
): AnthropicCallError {
  const facts = readBody(body);
  const providerMessage = redactSecret(facts.message, context.secret);
  const requestId = context.headers?.get('request-id') ?? facts.requestId;
  const { kind, retryable } = classifyError(facts.type, undefined);
  return new AnthropicCallError({
    message: redactSecret(
      `${context.provider} reported an error mid-stream${facts.type === undefined ? '' : ` (${facts.type})`}: ${providerMessage ?? 'no message'}${suffix(requestId)}`,
      context.secret,
    ),
    kind,
    isRetryable: retryable,
    responseBody: redactSecret(raw.slice(0, MAX_BODY_CHARS), context.secret),
    provider: context.provider,
    errorType: facts.type,
    providerMessage,
    requestId,
  });
}

/**
 * Builds the error for a failure without an HTTP status: the connection failed, dropped mid-stream,
 * or the body could not be read (`transport`), or the stream ended before the model finished
 * (`incomplete_stream`, given as `kind`). Retryable unless `retryable` says otherwise.
 * @internal
 */
export function transportError(
  what: string,
  cause: unknown,
  context: ErrorContext & {
    readonly retryable?: boolean | undefined;
    readonly headers?: Headers | undefined;
    readonly kind?: 'transport' | 'incomplete_stream' | 'protocol_violation' | undefined;
  },
): AnthropicCallError {
  const detail = cause instanceof Error ? cause.message : cause === undefined ? '' : String(cause);
  const requestId = context.headers?.get('request-id') ?? undefined;
  return new AnthropicCallError({
    message: redactSecret(
      `${context.provider} ${what}${detail === '' ? '' : `: ${detail}`}${suffix(requestId)}`,
      context.secret,
    ),
    kind: context.kind ?? 'transport',
    isRetryable: context.retryable ?? true,
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
  context: ErrorContext & { readonly headers?: Headers | undefined },
): AnthropicCallError {
  const requestId = context.headers?.get('request-id') ?? undefined;
  return new AnthropicCallError({
    message: redactSecret(`${context.provider} ${failure.message}${suffix(requestId)}`, context.secret),
    kind: failure.kind,
    isRetryable: failure.retryable,
    statusCode: failure.statusCode,
    provider: context.provider,
    requestId,
    cause: failure,
  });
}
