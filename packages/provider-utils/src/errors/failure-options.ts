import type { ModelCallErrorKind } from '@tiny/llm';
import { deriveRetry } from './classify-provider-error.js';
import { describeCause } from './describe-cause.js';
import { HttpFailure } from './http-failure.js';
import { redactSecret, type Secrets } from './redact-secret.js';
import { scrubCause } from './scrub-cause.js';

/** The adapters' own words for failures without an error payload, each with its shared kind. */
export const TRANSPORT_KINDS = {
  transport: 'network',
  incomplete_stream: 'incomplete_stream',
  protocol_violation: 'protocol_violation',
  invalid_chunk_json: 'invalid_chunk',
  /** A 200 answer that is no response of the API at all (`{}`: no content, no choices). */
  invalid_response: 'invalid_chunk',
} as const satisfies Record<string, ModelCallErrorKind>;

/** A failure without an error payload, in the adapters' words. */
export type TransportFailureKind = keyof typeof TRANSPORT_KINDS;

/** The plumbing's refusals (`HttpFailure`), each with its shared kind. */
export const HTTP_FAILURE_KINDS = {
  redirect: 'redirect',
  response_too_large: 'response_too_large',
  response_timeout: 'timeout',
} as const satisfies Record<HttpFailure['kind'], ModelCallErrorKind>;

/** Who failed, for the message, and the secret to keep out of it. */
export interface FailureContext {
  readonly provider: string;
  readonly secret?: Secrets;
  readonly requestId?: string | undefined;
  /** The status of a response that had arrived (a stream's 200), when one did. */
  readonly statusCode?: number | undefined;
}

/** The options every adapter's call error takes for a failure, shared so they are built one way. */
export interface FailureOptions {
  readonly message: string;
  readonly kind: ModelCallErrorKind;
  readonly providerKind: string;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly provider: string;
  readonly requestId: string | undefined;
  readonly cause: unknown;
}

function suffix(requestId: string | undefined): string {
  return requestId === undefined ? '' : ` (request ${requestId})`;
}

/**
 * The call-error options for a failure without an error payload: the connection failed or dropped
 * (`transport`, kind `network`), the stream ended early (`incomplete_stream`), broke the protocol
 * (`protocol_violation`), or an event or body was not JSON (`invalid_chunk_json`, kind
 * `invalid_chunk`). The message is `<provider> <what>: <cause> (request <id>)`, scrubbed of the
 * secret, and the `cause` is a scrubbed copy of its chain (see `scrubCause`); retryability follows the kind (`deriveRetry`).
 */
export function transportFailureOptions(
  what: string,
  cause: unknown,
  providerKind: TransportFailureKind,
  context: FailureContext,
): FailureOptions {
  const detail = describeCause(cause);
  const kind = TRANSPORT_KINDS[providerKind];
  return {
    message: redactSecret(
      `${context.provider} ${what}${detail === '' ? '' : `: ${detail}`}${suffix(context.requestId)}`,
      context.secret,
    ),
    kind,
    providerKind,
    statusCode: context.statusCode,
    ...deriveRetry(kind, context.statusCode),
    provider: context.provider,
    requestId: context.requestId,
    // What the platform or a custom fetch wrote into the failure keeps no secret either.
    cause: scrubCause(cause, context.secret),
  };
}

/**
 * The call-error options for a refusal of the shared HTTP plumbing (`HttpFailure`): a redirect not
 * followed (`redirect`), a size bound passed (`response_too_large`) or a time bound (`timeout`);
 * the plumbing's word is the `providerKind`, its status (or the context's) carried over. The
 * `cause` is a copy of the failure with its message and `location` scrubbed of the secret (a
 * redirect's `Location` may echo the key the request carried).
 */
export function httpFailureOptions(failure: HttpFailure, context: FailureContext): FailureOptions {
  const kind = HTTP_FAILURE_KINDS[failure.kind];
  const statusCode = failure.statusCode ?? context.statusCode;
  return {
    message: redactSecret(`${context.provider} ${failure.message}${suffix(context.requestId)}`, context.secret),
    kind,
    providerKind: failure.kind,
    statusCode,
    ...deriveRetry(kind, statusCode),
    provider: context.provider,
    requestId: context.requestId,
    cause: new HttpFailure({
      kind: failure.kind,
      message: redactSecret(failure.message, context.secret),
      retryable: failure.retryable,
      statusCode: failure.statusCode,
      location: redactSecret(failure.location, context.secret),
      limit: failure.limit,
    }),
  };
}
