import type {
  LanguageModelV1,
  LanguageModelV1Request,
  LanguageModelV1Response,
  LanguageModelV1StreamPart,
  LanguageModelV1StreamResult,
  ModelProfile,
} from '@tiny/llm';
import {
  HttpLanguageModel,
  type HttpModelTransport,
  type ModelCallErrors,
  readModelJson,
  urlForSettings,
} from '@tiny/provider-utils';
import { type ErrorContext, errorFromResponse, httpFailureError, transportError } from '../errors/create-call-error.js';
import { GoogleCallError } from '../errors/google-call-error.js';
import { buildRequestBody, type RequestPlan } from '../request/build-request-body.js';
import type { GoogleProviderOptions } from '../request/google-provider-options.js';
import type { GoogleSchemaMode } from '../request/to-gemini-schema.js';
import { parseResponse } from '../response/parse-response.js';
import { type StreamContext, streamResponse } from '../stream/stream-response.js';

/** The credentials of a request: headers to send, computed per request (a Vertex token may rotate). @internal */
export type AuthHeaders = () => Promise<Readonly<Record<string, string>>>;

/** Everything a model needs; built by `createGoogle`. @internal */
export interface GoogleModelConfig extends HttpModelTransport {
  /** `.../models/<id>` without the method; `:generateContent` or `:streamGenerateContent?alt=sse` is appended. */
  readonly modelURL: string;
  readonly auth: AuthHeaders;
  /** Secrets known up front (the API key), kept out of every error. */
  readonly secrets: readonly string[];
  readonly profile: ModelProfile;
  readonly schemaMode: GoogleSchemaMode;
  readonly providerOptions: GoogleProviderOptions;
}

/** The adapter's call errors, for the shared model scaffolding. */
const ERRORS: ModelCallErrors<GoogleCallError> = {
  transport: transportError,
  refused: httpFailureError,
  answer: errorFromResponse,
};

/**
 * A Gemini model over `generateContent` and `streamGenerateContent` (the Gemini API of AI Studio,
 * or Vertex AI). Create one with `createGoogle(...)('gemini-2.5-flash')` or `createVertex(...)`.
 * Thought parts come back as `reasoning`; every thought signature is kept (on a call, in its
 * `extraContent`; on text or thought parts, in `reasoningSignature`) and sent back on the same
 * part when the recorded assistant turn is replayed.
 */
export class GoogleGenerativeModel extends HttpLanguageModel<GoogleCallError> implements LanguageModelV1 {
  /** The model's capabilities. */
  readonly profile: ModelProfile;
  private readonly config: GoogleModelConfig;

  /** @internal Use a provider (`createGoogle(...)('model')`) instead. */
  constructor(config: GoogleModelConfig) {
    super(config, ERRORS);
    this.config = config;
    this.profile = config.profile;
  }

  /**
   * What every request sends from the model's own settings: the model URL (the API version in its
   * path; see `urlForSettings`), the provider name (the `providerOptions` key it reads: a model under another
   * `name` is a settings change), the model id, the schema mode, the model-level provider options and
   * the profile's `structuredOutput`, read afresh each time. No key, token or header value.
   */
  wireSettings(): unknown {
    const { config } = this;
    return {
      url: urlForSettings(config.modelURL),
      provider: config.provider,
      model: config.modelId,
      schemaMode: config.schemaMode,
      providerOptions: config.providerOptions,
      profile: { structuredOutput: this.profile.structuredOutput },
    };
  }

  /**
   * Runs the model to completion (`:generateContent`).
   *
   * @throws {GoogleCallError} for an HTTP error, a transport failure or an error body.
   * @throws {GoogleSchemaError} in `openapi` schema mode, for a keyword the subset cannot express.
   * @throws the signal's reason when `abortSignal` fires.
   */
  async doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response> {
    const { response, plan, context } = await this.post(request, false);
    const { raw, json: body } = await this.readJson(response, request.abortSignal, context);
    return {
      ...parseResponse(body, raw, context, plan.warnings),
      warnings: plan.warnings,
      request: { body: plan.body },
      response: { body, headers: Object.fromEntries(response.headers), statusCode: response.status },
    };
  }

  /**
   * Runs the model with `:streamGenerateContent?alt=sse` and yields parts as the events arrive.
   * Failures after the headers arrive as an `error` part after the output received so far.
   *
   * @throws {GoogleCallError} when the call fails before the stream starts.
   * @throws the signal's reason when `abortSignal` fires (also from the iteration).
   */
  async doStream(request: LanguageModelV1Request): Promise<LanguageModelV1StreamResult> {
    const { response, plan, context } = await this.post(request, true);
    const streamContext = {
      ...context,
      signal: request.abortSignal,
      limits: this.config.limits,
      warnings: plan.warnings,
    };
    const contentType = response.headers.get('content-type') ?? '';
    const stream =
      response.body === null || contentType.includes('application/json')
        ? wholeBody(response, streamContext)
        : streamResponse(response.body, streamContext);
    return {
      stream,
      warnings: plan.warnings,
      request: { body: plan.body },
      response: { headers: Object.fromEntries(response.headers), statusCode: response.status },
    };
  }

  private async post(
    request: LanguageModelV1Request,
    stream: boolean,
  ): Promise<{ response: Response; plan: RequestPlan; context: ErrorContext }> {
    const { config } = this;
    const plan = buildRequestBody(request, {
      provider: config.provider,
      profile: config.profile,
      schemaMode: config.schemaMode,
      providerOptions: config.providerOptions,
    });
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    const auth = await config.auth();
    // Any header value may be a credential a server echoes: the key, the token, every header given.
    const context: ErrorContext = this.errorContext(request, auth);
    const sent = await this.send(
      request,
      {
        url: `${config.modelURL}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        body: plan.body,
        stream,
        headers: auth,
        checkHeaders: (headers) => refuseUnsafeHeaders(headers, config.provider),
      },
      context,
    );
    if ('error' in sent) throw sent.error;
    return { response: sent.response, plan, context };
  }
}

/**
 * A server that answered a streamed request with one JSON body (`streamGenerateContent` without
 * `alt=sse` answers a JSON array of responses; a proxy may answer one response object): every
 * element is read as one stream event, in order, through the same reader as an SSE stream (so an
 * error element, a splice, a second candidate or content after the finish is surfaced as there).
 */
async function* wholeBody(response: Response, context: StreamContext): AsyncGenerator<LanguageModelV1StreamPart> {
  let events: string;
  try {
    const { json } = await readModelJson(response, context, context, ERRORS);
    const chunks: readonly unknown[] = Array.isArray(json) ? json : [json];
    // the list is flattened one level: a list inside it is no response
    if (chunks.some((chunk) => Array.isArray(chunk)))
      throw transportError('answered the stream with a list nested in the list of responses', undefined, {
        ...context,
        kind: 'invalid_chunk_json',
      });
    events = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('');
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    yield { type: 'error', error };
    return;
  }
  const bytes = new TextEncoder().encode(events);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  // held to the same bounds as an SSE stream (one element past `maxEventBytes` is refused alike)
  yield* streamResponse(body, context);
}

/**
 * Refuses a header whose value holds a CR, LF or NUL before anything is sent: `fetch` would trim
 * some and reject others with the value (a key, say) quoted in its message, and a CR/LF inside a
 * value is a header injection. The error names the header, never its value.
 *
 * @throws {GoogleCallError} of kind `invalid_request` (`providerKind` `invalid_header`), not retryable.
 */
function refuseUnsafeHeaders(headers: Readonly<Record<string, string>>, provider: string): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/[\r\n\0]/.test(value) && !/[\r\n\0]/.test(name)) continue;
    const shown = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/.test(name) ? `\`${name}\`` : 'with an unreadable name';
    throw new GoogleCallError({
      message: `${provider} request not sent: the header ${shown} holds a CR, LF or NUL character (check the API key, token or headers given)`,
      kind: 'invalid_request',
      providerKind: 'invalid_header',
      provider,
      isRetryable: false,
    });
  }
}
