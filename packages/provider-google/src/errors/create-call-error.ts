import type { ModelCallErrorKind } from '@tiny/llm';
import {
  asArray,
  asNonEmptyString,
  asRecord,
  asString,
  deriveRetry,
  type HttpFailure,
  type HttpLimits,
  httpFailureOptions,
  MAX_RETRY_AFTER_MS,
  readErrorAnswer,
  readErrorEvent,
  redactDeep,
  type Secrets,
  type TransportFailureKind,
  transportFailureOptions,
} from '@tiny/provider-utils';
import { GoogleCallError } from './google-call-error.js';

/** Who failed, and the secrets to keep out of the error. @internal */
export interface ErrorContext {
  readonly provider: string;
  readonly secret?: Secrets;
}

/**
 * The shared kind of each `google.rpc.Code` name, for an error whose HTTP status says less (an
 * error object inside a 200 stream, or a status the shared table reads as generic).
 */
const RPC_KINDS: ReadonlyMap<string, ModelCallErrorKind> = new Map([
  ['INVALID_ARGUMENT', 'invalid_request'],
  ['FAILED_PRECONDITION', 'invalid_request'],
  ['OUT_OF_RANGE', 'invalid_request'],
  ['UNAUTHENTICATED', 'auth'],
  ['PERMISSION_DENIED', 'permission'],
  ['NOT_FOUND', 'not_found'],
  ['RESOURCE_EXHAUSTED', 'rate_limit'],
  ['UNAVAILABLE', 'server_error'],
  ['INTERNAL', 'server_error'],
  ['UNKNOWN', 'server_error'],
  ['DATA_LOSS', 'server_error'],
  ['DEADLINE_EXCEEDED', 'timeout'],
  ['ABORTED', 'server_error'],
  ['CANCELLED', 'server_error'],
]);

/** The `google.rpc` error object of a body: `{error: {code, message, status, details}}` (or the first of an array). */
function rpcError(body: unknown): Readonly<Record<string, unknown>> | undefined {
  const record = asRecord(Array.isArray(body) ? body[0] : body);
  return asRecord(record?.error);
}

/** Milliseconds of a `google.protobuf.Duration` in JSON (`"34.4s"`), capped like `Retry-After`. */
function durationMs(value: unknown): number | undefined {
  const text = asString(value);
  const match = text === undefined ? null : /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(text);
  if (match === null) return undefined;
  return Math.min(Math.round(Number(match[1]) * 1000), MAX_RETRY_AFTER_MS);
}

/** The `retryDelay` of a `google.rpc.RetryInfo` detail, in milliseconds. @internal */
export function retryInfoDelay(details: readonly unknown[]): number | undefined {
  for (const detail of details) {
    const record = asRecord(detail);
    if (asString(record?.['@type'])?.endsWith('google.rpc.RetryInfo')) return durationMs(record?.retryDelay);
  }
  return undefined;
}

/**
 * The kind the `google.rpc` status gives when the shared classifier found nothing specific (its
 * reading was `unknown`, or the `server_error` of an unknown error inside a started stream): an
 * in-stream `INVALID_ARGUMENT` is an invalid request, not a retryable server error. A specific
 * reading (a context overflow or quota named in the message, a 429) is kept.
 */
function refine(kind: ModelCallErrorKind, status: string | undefined, message: string | undefined): ModelCallErrorKind {
  if (kind !== 'rate_limit' && kind !== 'quota_exceeded' && message !== undefined && PROMPT_TOO_LONG.test(message))
    return 'context_overflow';
  const byStatus = status === undefined ? undefined : RPC_KINDS.get(status.toUpperCase());
  if (byStatus === undefined) return kind;
  return kind === 'unknown' || kind === 'server_error' ? byStatus : kind;
}

/** Gemini's own words for a prompt past the context window (`The input token count (N) exceeds the maximum number of tokens allowed (M).`). */
const PROMPT_TOO_LONG = /input token count\b.*\bexceeds the maximum number of tokens/i;

/** The shared kind of a `google.rpc.ErrorInfo` reason that names it better than the status (a 400 for a bad key). */
const REASON_KINDS: ReadonlyMap<string, ModelCallErrorKind> = new Map([['API_KEY_INVALID', 'auth']]);

/** The kind an `ErrorInfo` detail's `reason` gives (`API_KEY_INVALID` → `auth`), when one does. @internal */
export function errorInfoKind(details: readonly unknown[]): ModelCallErrorKind | undefined {
  for (const detail of details) {
    const record = asRecord(detail);
    if (!asString(record?.['@type'])?.endsWith('google.rpc.ErrorInfo')) continue;
    const kind = REASON_KINDS.get(asString(record?.reason) ?? '');
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** A `google.rpc` detail list, for the error (the caller scrubs it of the secrets: an `ErrorInfo`'s metadata may echo the key). */
function detailsOf(error: Readonly<Record<string, unknown>> | undefined): readonly unknown[] {
  return asArray(error?.details);
}

/**
 * Builds the error for an HTTP error status: the `google.rpc` status, message and details, the
 * shared kind (the HTTP status first, the rpc status refining a generic reading), and the wait
 * before a retry (`retry-after`, else `RetryInfo.retryDelay`).
 * @internal
 */
export async function errorFromResponse(
  response: Response,
  context: ErrorContext & { readonly limits?: HttpLimits | undefined },
): Promise<GoogleCallError> {
  const { envelope, ...answer } = await readErrorAnswer(response, {
    ...context,
    requestId: () => undefined,
  });
  let details: readonly unknown[] = [];
  try {
    details = redactDeep(detailsOf(rpcError(JSON.parse(answer.responseBody))), context.secret);
  } catch {
    // a body that is not JSON (or was cut) carries no details
  }
  const status = asNonEmptyString(envelope?.type);
  const kind = errorInfoKind(details) ?? refine(answer.kind, status, answer.providerMessage);
  const retry = deriveRetry(kind, response.status, response.headers);
  const retryAfterMs = retry.isRetryable ? (retry.retryAfterMs ?? retryInfoDelay(details)) : undefined;
  return new GoogleCallError({ ...answer, kind, status, details, isRetryable: retry.isRetryable, retryAfterMs });
}

/**
 * Builds the error for an error object inside a started stream (or a 200 body): the kind from its
 * `code` and `status`; an error nobody knows is a retryable server error, as the stream had started.
 * @internal
 */
export function errorFromEvent(
  body: unknown,
  raw: string,
  context: ErrorContext,
  where = 'reported an error mid-stream',
): GoogleCallError {
  const { envelope, ...event } = readErrorEvent(body, raw, { ...context, where });
  const status = asNonEmptyString(envelope?.type);
  const details = redactDeep(detailsOf(rpcError(body)), context.secret);
  const kind = errorInfoKind(details) ?? refine(event.kind, status, event.providerMessage);
  const retry = deriveRetry(kind, event.statusCode);
  return new GoogleCallError({
    ...event,
    kind,
    status,
    details,
    isRetryable: retry.isRetryable,
    retryAfterMs: retry.isRetryable ? retryInfoDelay(details) : undefined,
  });
}

/**
 * Builds the error for a failure without an error payload (see `transportFailureOptions`).
 * @internal
 */
export function transportError(
  what: string,
  cause: unknown,
  context: ErrorContext & { readonly kind?: TransportFailureKind | undefined },
): GoogleCallError {
  return new GoogleCallError(transportFailureOptions(what, cause, context.kind ?? 'transport', context));
}

/**
 * Builds the error for a refusal of the shared HTTP plumbing (a redirect, a size or time bound).
 * @internal
 */
export function httpFailureError(failure: HttpFailure, context: ErrorContext): GoogleCallError {
  return new GoogleCallError(httpFailureOptions(failure, context));
}
