/**
 * What failed in a model call, the same words for every provider adapter (`ModelCallError.kind`).
 * The adapter's own word for it stays beside it, as `providerKind`.
 *
 * The request cannot succeed as sent (never retryable):
 * - `invalid_request`: the provider rejected the request (400, 422, 413 and the like);
 * - `context_overflow`: the prompt does not fit the model's context; the caller must trim;
 * - `auth`: a missing, wrong or expired key (401); `permission`: the key may not do this (403);
 * - `not_found`: no such model or endpoint (404);
 * - `quota_exceeded`: out of credits or quota (OpenAI `insufficient_quota`, 402);
 * - `tools_unsupported`: the model or server takes no native tools (in this mode);
 * - `response_format_unsupported`: the server rejected the requested output format;
 * - `content_filter`: the provider's content filter refused the request;
 * - `protocol_violation`: the response broke the wire protocol (two messages spliced into one
 *   stream, content after the finish); nothing of it may run;
 * - `redirect`: a redirect the adapter refuses (to another origin, method-changing, too many);
 * - `response_too_large`: a line, event or body passed the adapter's size limits.
 *
 * Worth retrying (the same request may succeed):
 * - `rate_limit` (429), `overloaded` (Anthropic 529, `overloaded_error`);
 * - `server_error`: the server failed (5xx, an unknown server-side error type, an error event
 *   in a 200 stream that does not say it is the request's fault);
 * - `network`: no answer arrived, or the connection dropped before any response;
 * - `timeout`: no progress within the adapter's idle bound, or past its total bound (408 too);
 * - `incomplete_stream`: the stream ended (by a dropped connection, or by `[DONE]` /
 *   `message_stop` without a finish reason) before the model finished;
 * - `invalid_chunk`: a stream event was not valid JSON. The HTTP request succeeded, so the status
 *   says nothing; the body was damaged on the way or by a transient server fault, and a retry
 *   (bounded by the caller's budget) is the useful answer.
 *
 * - `unknown`: none of the above; retryable as its HTTP status says (`isRetryableStatus`).
 */
export type ModelCallErrorKind =
  | 'rate_limit'
  | 'overloaded'
  | 'context_overflow'
  | 'auth'
  | 'permission'
  | 'not_found'
  | 'invalid_request'
  | 'quota_exceeded'
  | 'tools_unsupported'
  | 'response_format_unsupported'
  | 'content_filter'
  | 'incomplete_stream'
  | 'invalid_chunk'
  | 'protocol_violation'
  | 'server_error'
  | 'network'
  | 'timeout'
  | 'redirect'
  | 'response_too_large'
  | 'unknown';

/** Every {@link ModelCallErrorKind}. */
export const MODEL_CALL_ERROR_KINDS: readonly ModelCallErrorKind[] = [
  'rate_limit',
  'overloaded',
  'context_overflow',
  'auth',
  'permission',
  'not_found',
  'invalid_request',
  'quota_exceeded',
  'tools_unsupported',
  'response_format_unsupported',
  'content_filter',
  'incomplete_stream',
  'invalid_chunk',
  'protocol_violation',
  'server_error',
  'network',
  'timeout',
  'redirect',
  'response_too_large',
  'unknown',
];

const retryableKinds: ReadonlySet<ModelCallErrorKind> = new Set([
  'rate_limit',
  'overloaded',
  'server_error',
  'network',
  'timeout',
  'incomplete_stream',
  'invalid_chunk',
]);

/**
 * True for HTTP statuses worth retrying: 408 (request timeout), 409 (conflict), 429 (rate
 * limited) and every 5xx. Any other status (400, 401, 403, 404, 422, ...) will fail again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Whether a failure of this kind may succeed when the same request is sent again: the kinds listed
 * as retryable in {@link ModelCallErrorKind}; `unknown` by its HTTP status (`isRetryableStatus`,
 * false without one); every other kind never.
 */
export function isRetryableKind(kind: ModelCallErrorKind, statusCode?: number | undefined): boolean {
  if (kind === 'unknown') return statusCode !== undefined && isRetryableStatus(statusCode);
  return retryableKinds.has(kind);
}

/**
 * The kind an HTTP error status says by itself, when the body says nothing more: 400, 413 and 422
 * `invalid_request`, 401 `auth`, 402 `quota_exceeded`, 403 `permission`, 404 `not_found`, 408
 * `timeout`, 429 `rate_limit`, 529 `overloaded`, other 5xx `server_error`; `unknown` otherwise.
 */
export function kindFromStatus(statusCode: number | undefined): ModelCallErrorKind {
  switch (statusCode) {
    case 400:
    case 413:
    case 422:
      return 'invalid_request';
    case 401:
      return 'auth';
    case 402:
      return 'quota_exceeded';
    case 403:
      return 'permission';
    case 404:
      return 'not_found';
    case 408:
      return 'timeout';
    case 429:
      return 'rate_limit';
    case 529:
      return 'overloaded';
    default:
      return statusCode !== undefined && statusCode >= 500 && statusCode <= 599 ? 'server_error' : 'unknown';
  }
}
