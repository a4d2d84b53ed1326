import type { LanguageModelV1Request } from '@tiny/llm';
import type { TransportFailureKind } from '../errors/failure-options.js';
import type { HttpFailure } from '../errors/http-failure.js';
import { optionSecrets, requestSecrets, type Secrets } from '../errors/redact-secret.js';
import { mergeHeaders } from '../http/post-json.js';
import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/send-json.js';
import type { HttpLimits } from '../limits/http-limits.js';

/** Who failed, and every secret to keep out of the error (see {@link HttpLanguageModel.errorContext}). */
export interface ModelErrorContext {
  /** The provider id the error names. */
  readonly provider: string;
  /** The API key and every header value of the request. */
  readonly secret?: Secrets;
}

/** An adapter's builders of its own call error (a `ModelCallError` subclass), one per way a call fails. */
export interface ModelCallErrors<TError extends Error> {
  /**
   * A failure without an error payload: no response, a connection lost while the body was read, a
   * body that is not JSON (`kind` `invalid_chunk_json`), a stream cut or broken (see
   * `transportFailureOptions`).
   */
  transport(
    what: string,
    cause: unknown,
    context: ModelErrorContext & { readonly headers?: Headers | undefined; readonly kind?: TransportFailureKind },
  ): TError;
  /** A refusal of the plumbing: a redirect not followed, a size or time bound passed (see `httpFailureOptions`). */
  refused(failure: HttpFailure, context: ModelErrorContext & { readonly headers?: Headers | undefined }): TError;
  /** An answer with an HTTP error status, read into the error (see `readErrorAnswer`). */
  answer(
    response: Response,
    context: ModelErrorContext & { readonly limits?: HttpLimits | undefined },
  ): Promise<TError>;
}

/** How the model reaches its server: what every request of it shares. */
export interface HttpModelTransport {
  /** The provider id (`anthropic`, `openai`, a custom name). */
  readonly provider: string;
  /** The model id as the provider names it. */
  readonly modelId: string;
  /** The API key, kept out of every error (sent by the adapter in its own header). */
  readonly apiKey?: string | undefined;
  /** More secrets known up front, kept out of every error (a key sent in the URL, say). */
  readonly secrets?: readonly string[] | undefined;
  /** Headers sent with every request (after the adapter's own, before the request's). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The model's own provider options: credential-like values in them (see `optionSecrets`) are
   * kept out of every error, as are those of each request's `providerOptions`.
   */
  readonly providerOptions?: unknown;
  /** The `fetch` requests go through. */
  readonly fetch: typeof globalThis.fetch;
  /** Bounds on responses; `HttpLimits` defaults for those left out. */
  readonly limits?: HttpLimits | undefined;
}

/** One JSON POST of a model (see {@link HttpLanguageModel.send}). */
export interface ModelPost {
  /** Where it goes. */
  readonly url: string;
  /** The JSON body. */
  readonly body: unknown;
  /** True for a streamed call (`accept: text/event-stream`). */
  readonly stream: boolean;
  /** The adapter's own headers (its key header, a version), under the model's and the request's. */
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  /** Checks the merged headers before anything is sent (throws to refuse them). */
  readonly checkHeaders?: ((headers: Readonly<Record<string, string>>) => void) | undefined;
}

/**
 * The scaffolding every HTTP adapter's model class shares, so a fix reaches all of them: the
 * spec's identity fields, the error context holding every secret of a request, the JSON POST
 * (headers merged adapter, model, request; the plumbing's refusals and an HTTP error status turned
 * into the adapter's errors; an abort rethrows the signal's reason) and the reading of a JSON
 * answer. The wire (request bodies, responses, streams) stays in the adapter.
 */
export abstract class HttpLanguageModel<TError extends Error> {
  /** The spec version the model implements. */
  readonly specificationVersion = 'v1' as const;
  /** The provider id, lower case. */
  readonly provider: string;
  /** The model id as the provider names it. */
  readonly modelId: string;
  /** How requests reach the server. */
  protected readonly transport: HttpModelTransport;
  /** The adapter's error builders. */
  protected readonly errors: ModelCallErrors<TError>;

  /** Takes how the model reaches its server and the adapter's error builders. */
  protected constructor(transport: HttpModelTransport, errors: ModelCallErrors<TError>) {
    this.transport = transport;
    this.errors = errors;
    this.provider = transport.provider;
    this.modelId = transport.modelId;
  }

  /**
   * Who failed, and every secret of the request: the API key, every header value given (the
   * model's, the request's and `more`, such as a token fetched for this request) and the
   * credential-like values of the model's and the request's provider options (`optionSecrets`): a
   * server may echo any of them.
   */
  protected errorContext(request: LanguageModelV1Request, more?: Readonly<Record<string, string>>): ModelErrorContext {
    // Read afresh for every request: a header object or options edited in place (a rotated token) are what is sent.
    const secrets = [
      ...(this.transport.secrets ?? []),
      ...requestSecrets({ apiKey: this.transport.apiKey, headers: this.transport.headers }),
      ...optionSecrets(this.transport.providerOptions),
    ];
    const extra = [
      ...(more === undefined ? [] : requestSecrets({ headers: more })),
      ...(request.headers === undefined ? [] : requestSecrets({ headers: request.headers })),
      ...(request.providerOptions === undefined ? [] : optionSecrets(request.providerOptions)),
    ];
    return { provider: this.provider, secret: extra.length === 0 ? secrets : [...secrets, ...extra] };
  }

  /**
   * The header carrying the API key: `authorization: Bearer <key>` (`header` `authorization`, the
   * default) or the key as the value of `header` (`x-api-key`, Azure's `api-key`); none without a
   * key (a local server, or a key sent in the model's `headers`).
   */
  protected keyHeader(header = 'authorization'): Readonly<Record<string, string>> {
    const key = this.transport.apiKey;
    if (key === undefined || key === '') return {};
    return header.toLowerCase() === 'authorization' ? { authorization: `Bearer ${key}` } : { [header]: key };
  }

  /**
   * POSTs `post.body` as JSON: `content-type` and `accept` (by `post.stream`), then the adapter's
   * headers, the model's and the request's, merged in that order. Returns the response when its
   * status is a success, else the adapter's error for it (an abort during its reading rethrows
   * the signal's reason); a call without a response, or refused by the plumbing, throws the
   * adapter's error.
   */
  protected async send(
    request: LanguageModelV1Request,
    post: ModelPost,
    context: ModelErrorContext,
  ): Promise<{ readonly response: Response } | { readonly error: TError }> {
    const { transport, errors } = this;
    const headers = mergeHeaders(
      { 'content-type': 'application/json', accept: post.stream ? 'text/event-stream' : 'application/json' },
      post.headers ?? {},
      transport.headers,
      request.headers,
    );
    post.checkHeaders?.(headers);
    const response = await sendJson(
      {
        url: post.url,
        headers,
        body: post.body,
        signal: request.abortSignal,
        fetch: transport.fetch,
        limits: transport.limits,
      },
      {
        noResponse: (message, cause) => errors.transport(message, cause, context),
        refused: (failure) => errors.refused(failure, context),
      },
    );
    if (response.ok) return { response };
    const error = await errors.answer(response, { ...context, limits: transport.limits });
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    return { error };
  }

  /**
   * Reads a successful answer's body as JSON within the model's limits (see `readJsonBody`), each
   * failure through the adapter's errors with `context`.
   */
  protected readJson(
    response: Response,
    signal: AbortSignal | undefined,
    context: ModelErrorContext & { readonly headers?: Headers | undefined },
  ): Promise<{ raw: string; json: unknown }> {
    return readModelJson(response, { limits: this.transport.limits, signal }, context, this.errors);
  }
}

/**
 * Reads a successful answer's body as JSON (see `readJsonBody`), each failure through the adapter's
 * errors with `context`: a bound passed `refused`, a lost connection `transport`, text that is not
 * JSON `transport` of kind `invalid_chunk_json`. For the readers outside a model class (a whole
 * body answering a streamed request).
 */
export function readModelJson<TError extends Error, TContext extends ModelErrorContext>(
  response: Response,
  options: { readonly limits?: HttpLimits | undefined; readonly signal?: AbortSignal | undefined },
  context: TContext & { readonly headers?: Headers | undefined },
  errors: Pick<ModelCallErrors<TError>, 'transport' | 'refused'>,
): Promise<{ raw: string; json: unknown }> {
  return readJsonBody(response, options, {
    refused: (failure) => errors.refused(failure, context),
    lost: (what, cause) => errors.transport(what, cause, context),
    notJson: (what, cause) => errors.transport(what, cause, { ...context, kind: 'invalid_chunk_json' }),
  });
}
