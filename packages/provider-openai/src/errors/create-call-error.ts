import type { LanguageModelV1Usage } from '@tiny/llm';
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
import { OpenAICompatibleCallError } from './openai-compatible-call-error.js';

/** Who failed, and the secret to keep out of the error. @internal */
export interface ErrorContext {
  readonly provider: string;
  readonly secret?: Secrets;
}

function requestIdOf(headers: Headers | undefined): string | undefined {
  return headers?.get('x-request-id') ?? headers?.get('request-id') ?? undefined;
}

function _suffix(requestId: string | undefined): string {
  return requestId === undefined ? '' : ` (request ${requestId})`;
}

/**
 * Builds the error for an HTTP error status: the provider's message, type, code and param from
 * the body (any envelope `readErrorEnvelope` knows; a non-JSON body is used as the message, cut to
 * 500 characters), the shared kind, the request id and the wait before a retry (`deriveRetry`).
 * @internal
 */
export async function errorFromResponse(
  response: Response,
  context: ErrorContext & { readonly limits?: HttpLimits | undefined },
): Promise<OpenAICompatibleCallError> {
  const { envelope, ...answer } = await readErrorAnswer(response, { ...context, requestId: requestIdOf });
  return new OpenAICompatibleCallError({
    ...answer,
    errorType: envelope?.type,
    errorCode: envelope?.code,
    param: envelope?.param,
  });
}

/**
 * Builds the error for an error object inside a 200 body or a stream event. `statusCode` is the
 * status the error carries (`{"error":{"code":500}}`, so an error event that is the first and only
 * event after HTTP 200 reports its own 500), else the HTTP status (200); the payload's code is
 * `errorCode`. The kind is read as for an HTTP error; an error nobody knows is a server error
 * (retryable), as the response had started fine.
 * @internal
 */
export function errorFromBody(
  body: unknown,
  raw: string,
  context: ErrorContext & {
    readonly where: 'response' | 'stream';
    readonly headers?: Headers | undefined;
    readonly httpStatus?: number | undefined;
    /** The usage the stream reported before the error, kept on it. */
    readonly usage?: LanguageModelV1Usage | undefined;
  },
): OpenAICompatibleCallError {
  const { envelope, ...event } = readErrorEvent(body, raw, {
    ...context,
    where: context.where === 'stream' ? 'reported an error mid-stream' : 'returned an error',
    requestId: requestIdOf(context.headers),
    httpStatus: context.httpStatus ?? 200,
  });
  return new OpenAICompatibleCallError({
    ...event,
    errorType: envelope?.type,
    errorCode: envelope?.code,
    param: envelope?.param,
    usage: context.usage,
  });
}

/**
 * Builds the error for a failure that is not an error payload: the connection failed or dropped
 * (`transport`, kind `network`), the stream ended early (`incomplete_stream`), broke the protocol
 * (`protocol_violation`), or an event or body was not JSON (`invalid_chunk_json`, kind
 * `invalid_chunk`); see `transportFailureOptions`. `httpStatus` is the status of a response that
 * had arrived (a stream's 200), absent when none did.
 * @internal
 */
export function transportError(
  what: string,
  cause: unknown,
  context: ErrorContext & {
    readonly headers?: Headers | undefined;
    readonly kind?: TransportFailureKind | undefined;
    readonly httpStatus?: number | undefined;
  },
): OpenAICompatibleCallError {
  return new OpenAICompatibleCallError(
    transportFailureOptions(what, cause, context.kind ?? 'transport', {
      ...context,
      requestId: requestIdOf(context.headers),
      statusCode: context.httpStatus,
    }),
  );
}

/**
 * Builds the error for a refusal of the shared HTTP plumbing (`HttpFailure`): a redirect not
 * followed, a size or time bound passed; see `httpFailureOptions`.
 * @internal
 */
export function httpFailureError(
  failure: HttpFailure,
  context: ErrorContext & { readonly headers?: Headers | undefined; readonly httpStatus?: number | undefined },
): OpenAICompatibleCallError {
  return new OpenAICompatibleCallError(
    httpFailureOptions(failure, {
      ...context,
      requestId: requestIdOf(context.headers),
      statusCode: context.httpStatus,
    }),
  );
}
