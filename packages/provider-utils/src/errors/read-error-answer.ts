import type { ModelCallErrorKind } from '@tiny/llm';
import { MAX_ERROR_BODY_CHARS, readErrorBody } from '../http/read-error-body.js';
import type { HttpLimits } from '../limits/http-limits.js';
import { classifyProviderError, deriveRetry } from './classify-provider-error.js';
import { type ErrorEnvelope, readErrorEnvelope } from './read-error-envelope.js';
import { redactCut, redactDeep, redactSecret, type Secrets } from './redact-secret.js';

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
 * `requestId(headers)`, else the body's), every text scrubbed of `secret` (the envelope's fields,
 * the request id and the provider's kind included), each before it is cut.
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
  const read = readErrorEnvelope(body.json);
  const trimmed = body.text.trim();
  // Scrubbed before it is cut: a cut through a secret must not leave its head.
  const said = read?.message ?? (trimmed === '' ? undefined : redactCut(trimmed, context.secret, 500));
  const providerMessage = redactSecret(said, context.secret);
  const requestId = redactSecret(context.requestId(response.headers) ?? read?.requestId, context.secret);
  const envelope = read === undefined ? undefined : redactDeep(read, context.secret);
  const { kind, providerKind } = classifyProviderError({
    statusCode: response.status,
    type: read?.type,
    code: read?.code,
    param: read?.param,
    message: said,
  });
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  return {
    message: redactSecret(
      `${context.provider} answered ${status}${providerMessage === undefined ? '' : `: ${providerMessage}`}${requestId === undefined ? '' : ` (request ${requestId})`}`,
      context.secret,
    ),
    kind,
    providerKind: redactSecret(providerKind, context.secret),
    statusCode: response.status,
    ...deriveRetry(kind, response.status, response.headers),
    responseBody: redactCut(body.text, context.secret, MAX_ERROR_BODY_CHARS),
    provider: context.provider,
    providerMessage,
    requestId,
    envelope,
  };
}
