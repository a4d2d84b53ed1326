import type { ModelCallErrorKind } from '@tiny/llm';
import { MAX_ERROR_BODY_CHARS } from '../http/read-error-body.js';
import { classifyProviderError, deriveRetry } from './classify-provider-error.js';
import { type ErrorEnvelope, readErrorEnvelope } from './read-error-envelope.js';
import { redactCut, redactDeep, redactSecret, type Secrets } from './redact-secret.js';

/** What an adapter's call error takes for an error inside a started response, read one way. */
export interface ErrorEvent {
  /** `<provider> <where>[ (<type>)]: <provider message> (request <id>)`, scrubbed of the secret. */
  readonly message: string;
  readonly kind: ModelCallErrorKind;
  readonly providerKind: string | undefined;
  /** The status the error carried (`{"error":{"code":500}}`), else the HTTP status given, else absent. */
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly responseBody: string;
  readonly provider: string;
  readonly providerMessage: string | undefined;
  readonly requestId: string | undefined;
  readonly envelope: ErrorEnvelope | undefined;
}

/**
 * Reads an error inside a response that had started fine (an SSE `error` event, an error object in
 * a 200 body) into the options of an adapter's call error: the error in any envelope
 * (`readErrorEnvelope`; the raw text, cut to 500 characters, when the event was not JSON), the
 * shared kind (`classifyProviderError` with `inBody`: an unknown error is a retryable
 * `server_error`), the status it carried, retryability (`deriveRetry`), every text scrubbed of
 * `secret` (the envelope's fields, the request id and the provider's kind included), each before it is cut. `where` words the message (`reported an error mid-stream`).
 */
export function readErrorEvent(
  body: unknown,
  raw: string,
  context: {
    readonly provider: string;
    readonly secret?: Secrets;
    readonly where: string;
    readonly requestId?: string | undefined;
    readonly httpStatus?: number | undefined;
    readonly headers?: Headers | undefined;
  },
): ErrorEvent {
  const read = readErrorEnvelope(body);
  // Scrubbed before it is cut: a cut through a secret must not leave its head.
  const said =
    read?.message ?? (body === undefined && raw.trim() !== '' ? redactCut(raw.trim(), context.secret, 500) : undefined);
  const providerMessage = redactSecret(said, context.secret);
  const requestId = redactSecret(context.requestId ?? read?.requestId, context.secret);
  const envelope = read === undefined ? undefined : redactDeep(read, context.secret);
  const statusCode = read?.status ?? context.httpStatus;
  const { kind, providerKind } = classifyProviderError({
    payloadStatus: read?.status,
    type: read?.type,
    code: read?.code,
    param: read?.param,
    message: said,
    inBody: true,
  });
  return {
    message: redactSecret(
      `${context.provider} ${context.where}${envelope?.type === undefined ? '' : ` (${envelope.type})`}: ${providerMessage ?? 'no message'}${requestId === undefined ? '' : ` (request ${requestId})`}`,
      context.secret,
    ),
    kind,
    providerKind: redactSecret(providerKind, context.secret),
    statusCode,
    ...deriveRetry(kind, statusCode, context.headers),
    responseBody: redactCut(raw, context.secret, MAX_ERROR_BODY_CHARS),
    provider: context.provider,
    providerMessage,
    requestId,
    envelope,
  };
}
