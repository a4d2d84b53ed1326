import type {
  LanguageModelV1,
  LanguageModelV1Request,
  LanguageModelV1Response,
  LanguageModelV1StreamResult,
  ModelProfile,
} from '@tiny/llm';
import {
  HttpLanguageModel,
  type HttpModelTransport,
  type ModelCallErrors,
  redactDeep,
  urlForSettings,
  wholeBodyParts,
} from '@tiny/provider-utils';
import { errorFromResponse, httpFailureError, transportError } from '../errors/create-call-error.js';
import type { OpenAIResponsesCallError } from '../errors/openai-responses-call-error.js';
import { buildRequestBody, type RequestPlan } from '../request/build-request-body.js';
import type { OpenAIResponsesProviderOptions } from '../request/responses-provider-options.js';
import { parseResponse } from '../response/parse-response.js';
import { streamResponse } from '../stream/stream-response.js';

/** Everything a model needs; built by `createOpenAIResponses`. @internal */
export interface OpenAIResponsesModelConfig extends HttpModelTransport {
  /** The full URL requests go to (`…/responses`, with Azure's `api-version` query when set). */
  readonly url: string;
  /** How the key is sent: `authorization` (`Bearer <key>`) or Azure's `api-key` header. */
  readonly authHeader: 'authorization' | 'api-key';
  readonly profile: ModelProfile;
  readonly providerOptions: OpenAIResponsesProviderOptions;
}

/** The adapter's call errors, for the shared model scaffolding. */
const ERRORS: ModelCallErrors<OpenAIResponsesCallError> = {
  transport: transportError,
  refused: httpFailureError,
  answer: errorFromResponse,
};

/**
 * A model behind the OpenAI Responses API (`POST /v1/responses`): OpenAI, Azure OpenAI, or a
 * local server speaking it (vLLM, Ollama, LM Studio). Create one with
 * `createOpenAIResponses(...)('gpt-5')` or a preset. Reasoning items (with `encrypted_content`)
 * and hosted tool items come back in `reasoningSignature` and are replayed unchanged when the
 * recorded assistant turn is sent back.
 */
export class OpenAIResponsesModel extends HttpLanguageModel<OpenAIResponsesCallError> implements LanguageModelV1 {
  /** The model's capabilities. */
  readonly profile: ModelProfile;
  private readonly config: OpenAIResponsesModelConfig;

  /**
   * What every request sends from the model's own settings: the request URL (the API version in
   * its query included; see `urlForSettings`), the provider name (the `providerOptions` key it reads: a model under another
   * `name` is a settings change), the model id, the model-level provider options and
   * the profile fields the body is built from (`parallelToolCalls`, `structuredOutput`), read
   * afresh each time. No key or header value.
   */
  wireSettings(): unknown {
    const { config } = this;
    return {
      url: urlForSettings(config.url),
      provider: config.provider,
      model: config.modelId,
      providerOptions: config.providerOptions,
      profile: { parallelToolCalls: this.profile.parallelToolCalls, structuredOutput: this.profile.structuredOutput },
    };
  }

  /** @internal Use a provider (`createOpenAIResponses(...)('model')`) instead. */
  constructor(config: OpenAIResponsesModelConfig) {
    super(config, ERRORS);
    this.config = config;
    this.profile = config.profile;
  }

  /**
   * Runs the model to completion.
   *
   * @throws {OpenAIResponsesCallError} for an HTTP error, a transport failure, an error body or a
   *   `failed` response; of kind `redirect` for a redirect not followed, `response_too_large` or
   *   `timeout` for a body past `limits`.
   * @throws the signal's reason when `abortSignal` fires.
   */
  async doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response> {
    const { response, plan } = await this.post(request, false);
    const context = { ...this.errorContext(request), headers: response.headers };
    const { raw, json: body } = await this.readJson(response, request.abortSignal, context);
    return {
      ...parseResponse(body, raw, context),
      warnings: plan.warnings,
      request: { body: plan.body },
      // What the server echoed (a key in metadata or a header) stays out of what the caller sees.
      response: {
        body: redactDeep(body, context.secret),
        headers: redactDeep(Object.fromEntries(response.headers), context.secret),
        statusCode: response.status,
      },
    };
  }

  /**
   * Runs the model with `stream: true` and yields parts as the events arrive. Failures after the
   * headers arrive as an `error` part after the output received so far.
   *
   * @throws {OpenAIResponsesCallError} when the call fails before the stream starts.
   * @throws the signal's reason when `abortSignal` fires (also from the iteration).
   */
  async doStream(request: LanguageModelV1Request): Promise<LanguageModelV1StreamResult> {
    const { response, plan } = await this.post(request, true);
    const context = {
      ...this.errorContext(request),
      headers: response.headers,
      signal: request.abortSignal,
      limits: this.config.limits,
    };
    const contentType = response.headers.get('content-type') ?? '';
    const stream =
      response.body === null || contentType.includes('application/json')
        ? wholeBodyParts(response, context, ERRORS, (json, raw) => parseResponse(json, raw, context))
        : streamResponse(response.body, context);
    return {
      stream,
      warnings: plan.warnings,
      request: { body: plan.body },
      response: {
        headers: redactDeep(Object.fromEntries(response.headers), context.secret),
        statusCode: response.status,
      },
    };
  }

  private async post(
    request: LanguageModelV1Request,
    stream: boolean,
  ): Promise<{ response: Response; plan: RequestPlan }> {
    const { config } = this;
    const plan = buildRequestBody(request, {
      modelId: config.modelId,
      provider: config.provider,
      profile: config.profile,
      providerOptions: config.providerOptions,
      stream,
    });
    const key = this.keyHeader(config.authHeader);
    const sent = await this.send(
      request,
      { url: config.url, body: plan.body, stream, headers: key },
      this.errorContext(request),
    );
    if ('error' in sent) throw sent.error;
    return { response: sent.response, plan };
  }
}
