import type { ModelCallErrorKind } from '@tiny/llm';
import { MAX_ERROR_BODY_CHARS, readErrorBody } from '../http/read-error-body.js';
import type { HttpLimits } from '../limits/http-limits.js';
import { classifyProviderError, deriveRetry } from './classify-provider-error.js';
import { type ErrorEnvelope, readErrorEnvelope } from './read-error-envelope.js';
import { redactSecret, type Secrets } from './redact-secret.js';

/** What an adapter's call error takes for an HTTP error answer, read one way for every adapter. */
export interface ErrorAnswer {
  /** `<provider> answered <status>: <provider message> (request <id>)`, scrubbed of the secret. */
  readonly message: string;
  readonly kind: ModelCallErrorKind;
  readonly providerKind: string | undefined;
  readonly statusCode: number;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The head of the body, scrubbed, for logs. */
  readonly responseBody: string;
  readonly provider: string;
  /** The provider's message (the envelope's, else the body's head), scrubbed. */
  readonly providerMessage: string | undefined;
  readonly requestId: string | undefined;
  /** The error envelope the body held, when it held one. */
  readonly envelope: ErrorEnvelope | undefined;
}

/**
 * Reads an HTTP error answer into the options of an adapter's call error: the head of its body
 * (`readErrorBody`), the error in any envelope (`readErrorEnvelope`), the shared kind
 * (`classifyProviderError`), retryability and the wait (`deriveRetry`), the request id (from
 * `requestId(headers)`, else the body's), every text scrubbed of `secret`.
 */
export async function readErrorAnswer(
  response: Response,
  context: {
    readonly provider: string;
    readonly secret?: Secrets;
    readonly limits?: HttpLimits | undefined;
    readonly requestId: (headers: Headers) => string | undefined;
  },
): Promise<ErrorAnswer> {
  const body = await readErrorBody(response, context.limits);
  const envelope = readErrorEnvelope(body.json);
  const said = envelope?.message ?? body.fallback;
  const providerMessage = redactSecret(said, context.secret);
  const requestId = context.requestId(response.headers) ?? envelope?.requestId;
  const { kind, providerKind } = classifyProviderError({
    statusCode: response.status,
    type: envelope?.type,
    code: envelope?.code,
    param: envelope?.param,
    message: said,
  });
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  return {
    message: redactSecret(
      `${context.provider} answered ${status}${providerMessage === undefined ? '' : `: ${providerMessage}`}${requestId === undefined ? '' : ` (request ${requestId})`}`,
      context.secret,
    ),
    kind,
    providerKind,
    statusCode: response.status,
    ...deriveRetry(kind, response.status, response.headers),
    responseBody: redactSecret(body.text.slice(0, MAX_ERROR_BODY_CHARS), context.secret),
    provider: context.provider,
    providerMessage,
    requestId,
    envelope,
  };
}
