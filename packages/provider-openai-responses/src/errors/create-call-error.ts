import {
  type HttpFailure,
  type HttpLimits,
  httpFailureOptions,
  readErrorAnswer,
  readErrorEvent,
  redactDeep,
  type Secrets,
  scrubCause,
  type TransportFailureKind,
  transportFailureOptions,
} from '@tiny/provider-utils';
import { OpenAIResponsesCallError } from './openai-responses-call-error.js';

/** Who failed, and the secrets to keep out of the error. @internal */
export interface ErrorContext {
  readonly provider: string;
  readonly secret?: Secrets;
}

/**
 * The error with every string field scrubbed of the request's secrets: what the server echoed
 * (`errorType`, `errorCode`, `providerKind`, `param`, the `x-request-id` header, the body, in any
 * JSON or URL escaping) never carries the key or a header value given; nor does the `cause` chain
 * (a scrubbed copy, see `scrubCause`).
 */
function scrubbed(
  options: ConstructorParameters<typeof OpenAIResponsesCallError>[0],
  secret: Secrets,
): OpenAIResponsesCallError {
  const { cause, ...rest } = options as typeof options & { cause?: unknown };
  const clean = redactDeep(rest, secret);
  return new OpenAIResponsesCallError(
    (cause === undefined ? clean : { ...clean, cause: scrubCause(cause, secret) }) as ConstructorParameters<
      typeof OpenAIResponsesCallError
    >[0],
  );
}

function requestIdOf(headers: Headers | undefined): string | undefined {
  return headers?.get('x-request-id') ?? headers?.get('apim-request-id') ?? headers?.get('request-id') ?? undefined;
}

/**
 * Builds the error for an HTTP error status: the API's message, type, code and param (any
 * envelope `readErrorEnvelope` knows; a non-JSON body is the message, cut to 500 characters), the
 * shared kind, the request id and the wait before a retry.
 * @internal
 */
export async function errorFromResponse(
  response: Response,
  context: ErrorContext & { readonly limits?: HttpLimits | undefined },
): Promise<OpenAIResponsesCallError> {
  const { envelope, ...answer } = await readErrorAnswer(response, { ...context, requestId: requestIdOf });
  return scrubbed(
    { ...answer, errorType: envelope?.type, errorCode: envelope?.code, param: envelope?.param },
    context.secret,
  );
}

/**
 * Builds the error for an error inside a started response: an `error` event, the `error` of a
 * `response.failed` event or of a whole response with status `failed`, or an error body answered
 * with 200. The kind is read from the code, the type, then the message; an error nobody knows is a
 * retryable server error, as the response had started fine.
 * @internal
 */
export function errorFromEvent(
  body: unknown,
  raw: string,
  context: ErrorContext & { readonly headers?: Headers | undefined },
  where = 'reported an error mid-stream',
): OpenAIResponsesCallError {
  const { envelope, ...event } = readErrorEvent(body, raw, {
    ...context,
    where,
    requestId: requestIdOf(context.headers),
    httpStatus: 200,
  });
  return scrubbed(
    { ...event, errorType: envelope?.type, errorCode: envelope?.code, param: envelope?.param },
    context.secret,
  );
}

/**
 * Builds the error for a failure without an error payload: the connection failed or dropped
 * (`transport`), the stream ended before the response finished (`incomplete_stream`), broke the
 * protocol (`protocol_violation`) or was not JSON (`invalid_chunk_json`); see `transportFailureOptions`.
 * @internal
 */
export function transportError(
  what: string,
  cause: unknown,
  context: ErrorContext & {
    readonly headers?: Headers | undefined;
    readonly kind?: TransportFailureKind | undefined;
  },
): OpenAIResponsesCallError {
  return scrubbed(
    transportFailureOptions(what, cause, context.kind ?? 'transport', {
      ...context,
      requestId: requestIdOf(context.headers),
    }),
    context.secret,
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
): OpenAIResponsesCallError {
  return scrubbed(httpFailureOptions(failure, { ...context, requestId: requestIdOf(context.headers) }), context.secret);
}
