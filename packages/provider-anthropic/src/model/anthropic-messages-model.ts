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
  urlForSettings,
  wholeBodyParts,
} from '@tiny/provider-utils';
import type { AnthropicCallError } from '../errors/anthropic-call-error.js';
import { errorFromResponse, httpFailureError, transportError } from '../errors/create-call-error.js';
import type { AnthropicProviderOptions } from '../request/anthropic-provider-options.js';
import { buildRequestBody, type RequestPlan } from '../request/build-request-body.js';
import { parseMessage } from '../response/parse-message.js';
import { streamMessage } from '../stream/stream-message.js';

/** Everything a model needs; built by `createAnthropic`. @internal */
export interface AnthropicModelConfig extends HttpModelTransport {
  readonly url: string;
  readonly authHeader: 'x-api-key' | 'authorization';
  readonly version: string;
  readonly profile: ModelProfile;
  readonly maxTokens: number;
  readonly providerOptions: AnthropicProviderOptions;
}

/** The adapter's call errors, for the shared model scaffolding. */
const ERRORS: ModelCallErrors<AnthropicCallError> = {
  transport: transportError,
  refused: httpFailureError,
  answer: errorFromResponse,
};

/**
 * A Claude model (or any model behind a server speaking the Anthropic Messages API,
 * `POST /v1/messages`). Create one with `createAnthropic(...)('claude-sonnet-4-5')` or a preset.
 * Thinking blocks, redacted thinking and server-tool blocks come back through `reasoning` and
 * `reasoningSignature` and are replayed unchanged when the recorded assistant turn is sent back.
 */
export class AnthropicMessagesModel extends HttpLanguageModel<AnthropicCallError> implements LanguageModelV1 {
  /** The model's capabilities. */
  readonly profile: ModelProfile;
  private readonly config: AnthropicModelConfig;

  /** @internal Use a provider (`createAnthropic(...)('model')`) instead. */
  constructor(config: AnthropicModelConfig) {
    super(config, ERRORS);
    this.config = config;
    this.profile = config.profile;
  }

  /**
   * Runs the model to completion.
   *
   * @throws {AnthropicCallError} for an HTTP error, a transport failure or an error body; of kind
   *   `redirect` for a redirect not followed (see `createAnthropic`), of kind `response_too_large`
   *   or `timeout` for a body past `limits`.
   * @throws the signal's reason when `abortSignal` fires.
   */
  async doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response> {
    const { response, plan } = await this.post(request, false);
    const context = { ...this.errorContext(request), headers: response.headers };
    const { raw, json: body } = await this.readJson(response, request.abortSignal, context);
    return {
      ...parseMessage(body, raw, context),
      warnings: plan.warnings,
      request: { body: plan.body },
      response: { body, headers: Object.fromEntries(response.headers), statusCode: response.status },
    };
  }

  /**
   * Runs the model with `stream: true` and yields parts as the events arrive. Failures after the
   * headers (an `error` event, a dropped connection) arrive as an `error` part after the output
   * received so far.
   *
   * @throws {AnthropicCallError} when the call fails before the stream starts.
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
        ? wholeBodyParts(response, context, ERRORS, (json, raw) => parseMessage(json, raw, context))
        : streamMessage(response.body, context);
    return {
      stream,
      warnings: plan.warnings,
      request: { body: plan.body },
      response: { headers: Object.fromEntries(response.headers), statusCode: response.status },
    };
  }

  /**
   * What every request sends from the model's own settings: the request URL (see
   * `urlForSettings`), the provider name (the `providerOptions` key it reads: a model under another
   * `name` is a settings change), the profile's `parallelToolCalls` and `structuredOutput`, the model id, the default
   * `max_tokens`, the API version and the model-level provider options (`serverTools`, `thinking`,
   * `cacheControl`, ...), read afresh each time. No key or header value.
   */
  wireSettings(): unknown {
    const { config } = this;
    return {
      url: urlForSettings(config.url),
      provider: config.provider,
      model: config.modelId,
      maxTokens: config.maxTokens,
      version: config.version,
      providerOptions: config.providerOptions,
      profile: { parallelToolCalls: this.profile.parallelToolCalls, structuredOutput: this.profile.structuredOutput },
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
      defaultMaxTokens: config.maxTokens,
      providerOptions: config.providerOptions,
      stream,
    });
    const key = this.keyHeader(config.authHeader);
    const sent = await this.send(
      request,
      {
        url: config.url,
        body: plan.body,
        stream,
        headers: {
          'anthropic-version': config.version,
          ...(plan.betas.length === 0 ? {} : { 'anthropic-beta': plan.betas.join(',') }),
          ...key,
        },
      },
      this.errorContext(request),
    );
    if ('error' in sent) throw sent.error;
    return { response: sent.response, plan };
  }
}
