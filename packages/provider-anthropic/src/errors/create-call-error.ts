import {
  type HttpFailure,
  type HttpLimits,
  httpFailureOptions,
  readErrorAnswer,
  readErrorEvent,
  type Secrets,
  type TransportFailureKind,
  transportFailureOptions,
} from '@tiny/provider-utils';
import { AnthropicCallError } from './anthropic-call-error.js';
import { readRateLimits } from './read-rate-limits.js';

/** Who failed, and the secret to keep out of the error. @internal */
export interface ErrorContext {
  readonly provider: string;
  readonly secret?: Secrets;
}

function _suffix(requestId: string | undefined): string {
  return requestId === undefined ? '' : ` (request ${requestId})`;
}

/**
 * Builds the error for an HTTP error status: the API's error type and message (any envelope
 * `readErrorEnvelope` knows, relays' wrapped upstream errors included; a non-JSON body is used as
 * the message, cut to 500 characters), its shared kind, the request id, the rate-limit headers and
 * the delay before a retry.
 * @internal
 */
export async function errorFromResponse(
  response: Response,
  context: ErrorContext & { readonly limits?: HttpLimits | undefined },
): Promise<AnthropicCallError> {
  const { envelope, ...answer } = await readErrorAnswer(response, {
    ...context,
    requestId: (headers) => headers.get('request-id') ?? undefined,
  });
  return new AnthropicCallError({ ...answer, errorType: envelope?.type, rateLimits: readRateLimits(response.headers) });
}

/**
 * Builds the error for an `error` event in a stream (or an error body with status 200), in any
 * envelope `readErrorEnvelope` knows (llama.cpp's bare `{code, message, type}` included). The kind
 * comes from `error.type`, the message, then a status the payload carried; an error type nobody
 * knows is a server error (retryable), as the stream had started fine.
 * @internal
 */
export function errorFromEvent(
  body: unknown,
  raw: string,
  context: ErrorContext & { readonly headers?: Headers | undefined },
  where = 'reported an error mid-stream',
): AnthropicCallError {
  const { envelope, ...event } = readErrorEvent(body, raw, {
    ...context,
    where,
    requestId: context.headers?.get('request-id') ?? undefined,
  });
  return new AnthropicCallError({ ...event, errorType: envelope?.type });
}

/**
 * Builds the error for a failure without an error payload: the connection failed, dropped
 * mid-stream, or the body could not be read (`transport`: kind `network`), the stream ended before
 * the model finished (`incomplete_stream`), broke the protocol (`protocol_violation`) or was not
 * JSON (`invalid_chunk_json`: kind `invalid_chunk`); see `transportFailureOptions`.
 * @internal
 */
export function transportError(
  what: string,
  cause: unknown,
  context: ErrorContext & {
    readonly headers?: Headers | undefined;
    readonly kind?: TransportFailureKind | undefined;
  },
): AnthropicCallError {
  const requestId = context.headers?.get('request-id') ?? undefined;
  return new AnthropicCallError(
    transportFailureOptions(what, cause, context.kind ?? 'transport', { ...context, requestId }),
  );
}

/**
 * Builds the error for a refusal of the shared HTTP plumbing (`HttpFailure`): a redirect not
 * followed, a size or time bound passed; see `httpFailureOptions`.
 * @internal
 */
export function httpFailureError(
  failure: HttpFailure,
  context: ErrorContext & { readonly headers?: Headers | undefined },
): AnthropicCallError {
  const requestId = context.headers?.get('request-id') ?? undefined;
  return new AnthropicCallError(httpFailureOptions(failure, { ...context, requestId }));
}
