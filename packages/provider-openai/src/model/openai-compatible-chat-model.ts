import type {
  LanguageModelV1,
  LanguageModelV1CallWarning,
  LanguageModelV1Request,
  LanguageModelV1Response,
  LanguageModelV1StreamResult,
  ModelProfile,
} from '@tiny/llm';
import { HttpLanguageModel, type HttpModelTransport, type ModelCallErrors, urlForSettings } from '@tiny/provider-utils';
import { type DegradableField, implicatedField, rejectsTools } from '../errors/classify-rejection.js';
import { errorFromResponse, httpFailureError, transportError } from '../errors/create-call-error.js';
import type { OpenAICompatibleCallError } from '../errors/openai-compatible-call-error.js';
import { buildRequestBody, type RequestPlan } from '../request/build-request-body.js';
import { parseCompletion } from '../response/parse-completion.js';
import type { ReadContext } from '../response/read-context.js';
import { completionToParts } from '../stream/completion-to-parts.js';
import { streamCompletion } from '../stream/stream-completion.js';
import type { ModelProfiledReport } from './auto-profile.js';
import type { ResolvedSettings } from './openai-compatible-settings.js';

/** What the adapter learnt about one model id, shared by every instance a provider makes for it. @internal */
export interface ModelMemory {
  /** The server rejected native tools: tools go in the prompt from now on. */
  promptGuided: boolean;
  /** Fields the server rejected in their first form. */
  readonly degraded: Set<DegradableField>;
  /** The last `seq` of `text-{seq}-{slot}` call ids. */
  textSequence: number;
  /** The server cannot stream with tools (llama.cpp `Cannot use tools with stream`): such calls go unstreamed. */
  toolsWithoutStreaming?: boolean;
}

/**
 * What a model instance has learnt about its server, and falls back to, from the server's own
 * rejections (remembered per model id by the provider, until `resetCapabilities()`).
 */
export interface OpenAICompatibleCapabilities {
  /** Native tools were rejected: tools go in the prompt and calls are read from the text. */
  readonly promptGuidedTools: boolean;
  /** Request fields sent in their fallback form since the server rejected their first form. */
  readonly degradedFields: readonly DegradableField[];
  /** Streaming with tools was rejected: calls with tools are sent unstreamed (and replayed as a stream). */
  readonly toolsWithoutStreaming: boolean;
}

/** Everything a chat model needs; built by `createOpenAICompatible`. @internal */
export interface ChatModelConfig extends HttpModelTransport {
  readonly url: string;
  readonly profile: ModelProfile;
  readonly settings: ResolvedSettings;
  readonly memory: ModelMemory;
  /** With `autoProfile`: probes once and returns the report to its first caller. */
  readonly profileModel?: ((signal?: AbortSignal) => Promise<ModelProfiledReport | undefined>) | undefined;
}

interface Sent {
  readonly response: Response;
  readonly plan: RequestPlan;
  readonly warnings: LanguageModelV1CallWarning[];
  /** The request went out with `stream: true`. */
  readonly streamed: boolean;
}

/** The adapter's call errors, for the shared model scaffolding. */
const ERRORS: ModelCallErrors<OpenAICompatibleCallError> = {
  transport: transportError,
  refused: httpFailureError,
  answer: errorFromResponse,
};

/**
 * A chat model on an OpenAI-compatible `/chat/completions` endpoint. Create one with a provider
 * from `createOpenAICompatible` or a preset (`openai('gpt-4o-mini')`, `ollama()('qwen3:4b')`).
 *
 * Native mode sends tools on the wire. Prompt-guided mode (a profile with `toolCalling: false`,
 * or after the server rejected tools once) writes them into the system prompt and reads calls back
 * from the text. After such a rejection `profile` reports `toolCalling: false`, so a harness that
 * starts a new run picks its own text dialect.
 */
export class OpenAICompatibleChatModel extends HttpLanguageModel<OpenAICompatibleCallError> implements LanguageModelV1 {
  private readonly config: ChatModelConfig;

  /** @internal Use a provider (`createOpenAICompatible(...)('model')`) instead. */
  constructor(config: ChatModelConfig) {
    super(config, ERRORS);
    this.config = config;
  }

  /** The model's capabilities; without tool calling once the server has rejected native tools. */
  get profile(): ModelProfile {
    const base = this.config.profile;
    if (!this.config.memory.promptGuided || !base.toolCalling) return base;
    const mode = base.defaultStructuredMode === 'tool' ? 'provider' : base.defaultStructuredMode;
    return { ...base, toolCalling: false, parallelToolCalls: false, toolFormats: [], defaultStructuredMode: mode };
  }

  /**
   * With `autoProfile`: reads the server once per profiler, base URL and model id (later calls,
   * from any instance, wait for the same probe) and applies what it decided to `profile`. Returns
   * the decision to the first caller only (an `AgentHarness` reports it as `model_profiled`), and
   * `undefined` afterwards or without `autoProfile`. Never throws for a failed probe (the report
   * says why the profile stayed); rethrows the signal's reason when `signal` aborts.
   */
  async profileModel(signal?: AbortSignal): Promise<ModelProfiledReport | undefined> {
    return this.config.profileModel?.(signal);
  }

  /** True when tools are driven through the prompt for this model. */
  get promptGuided(): boolean {
    return !this.config.profile.toolCalling || this.config.memory.promptGuided;
  }

  /**
   * The fallbacks remembered for this model id after the server rejected something: prompt-guided
   * tools, fields in their fallback form, tool calls sent unstreamed. Each was also reported as a
   * warning on the response that triggered it.
   */
  capabilities(): OpenAICompatibleCapabilities {
    const { memory } = this.config;
    return {
      promptGuidedTools: memory.promptGuided,
      degradedFields: [...memory.degraded],
      toolsWithoutStreaming: memory.toolsWithoutStreaming === true,
    };
  }

  /**
   * Forgets every remembered fallback for this model id (for every instance of the provider), so
   * the next call tries native tools, the first form of every field and streaming again (after a
   * server upgrade, say).
   */
  resetCapabilities(): void {
    const { memory } = this.config;
    memory.promptGuided = false;
    memory.degraded.clear();
    memory.toolsWithoutStreaming = false;
  }

  /**
   * Runs the model to completion (`stream` off). Tool calls carry P1 leniency; in prompt-guided
   * mode they are read from the text with ids `text-{seq}-{slot}` and the narrative is the content.
   *
   * @throws {OpenAICompatibleCallError} for an HTTP error, a transport failure or an error body; of
   *   kind `redirect` for a redirect not followed (see `createOpenAICompatible`), of kind
   *   `response_too_large` or `timeout` for a body past `limits`.
   * @throws the signal's reason when `abortSignal` fires.
   */
  async doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response> {
    const { response, plan, warnings } = await this.post(request, false);
    const context = { ...this.readContext(request, plan, response.headers), httpStatus: response.status };
    const { raw, json: body } = await this.readJson(response, request.abortSignal, context);
    return {
      ...parseCompletion(body, raw, context),
      warnings,
      request: { body: plan.body },
      response: { body, headers: Object.fromEntries(response.headers), statusCode: response.status },
    };
  }

  /**
   * Runs the model with `stream: true` and yields parts as the SSE events arrive (a server that
   * answers with one JSON body is read too). Failures after the headers arrive as an `error` part,
   * after the parts already streamed. For a server that cannot stream with tools (remembered, see
   * `capabilities()`), a call with tools is sent unstreamed and its answer replayed as parts.
   *
   * @throws {OpenAICompatibleCallError} when the call fails before the stream starts.
   * @throws the signal's reason when `abortSignal` fires (also from the iteration).
   */
  async doStream(request: LanguageModelV1Request): Promise<LanguageModelV1StreamResult> {
    const { response, plan, warnings, streamed } = await this.post(request, true);
    const context = {
      ...this.readContext(request, plan, response.headers),
      signal: request.abortSignal,
      httpStatus: response.status,
    };
    const contentType = response.headers.get('content-type') ?? '';
    const stream =
      response.body === null || !streamed || contentType.includes('application/json')
        ? completionToParts(response, context)
        : streamCompletion(response.body, context);
    return {
      stream,
      warnings,
      request: { body: plan.body },
      response: { headers: Object.fromEntries(response.headers), statusCode: response.status },
    };
  }

  /**
   * What every request sends from the model's own settings: the request URL (see
   * `urlForSettings`), the provider name (the `providerOptions` key it reads: a model under another
   * `name` is a settings change), the model id, the profile fields the body is built from, the resolved wire
   * settings, and the forms the model switched to after the server's rejections (tools in the
   * prompt, fields in their fallback form), read afresh each time. No key or header value.
   */
  wireSettings(): unknown {
    const { config } = this;
    return {
      url: urlForSettings(config.url),
      provider: config.provider,
      model: config.modelId,
      profile: {
        parallelToolCalls: this.profile.parallelToolCalls,
        structuredOutput: this.profile.structuredOutput,
        systemPrompt: this.profile.systemPrompt,
      },
      settings: config.settings,
      promptGuided: this.promptGuided,
      degraded: [...config.memory.degraded].sort(),
    };
  }

  private readContext(request: LanguageModelV1Request, plan: RequestPlan, headers: Headers): ReadContext {
    const memory = this.config.memory;
    return {
      ...this.errorContext(request),
      extractThinking: this.config.settings.extractThinking,
      textTools: plan.textTools,
      // Tools put in the prompt make the text the call channel: a native-only profile's "no text
      // calls" (`toolCallFormats: []`, the hosted presets) gives way; a list of grammars still holds.
      toolCallFormats:
        (plan.textTools?.length ?? 0) > 0 && this.config.profile.toolCallFormats?.length === 0
          ? undefined
          : this.config.profile.toolCallFormats,
      nextTextSequence: () => ++memory.textSequence,
      headers,
      limits: this.config.limits,
    };
  }

  /**
   * Sends the request, recovering at most once per cause: a rejection of native tools switches the
   * model to prompt-guided mode, and a 400 that blames a field with a fallback form switches that
   * field; both are remembered for the model and reported as warnings.
   */
  private async post(request: LanguageModelV1Request, wantStream: boolean): Promise<Sent> {
    const { config } = this;
    const { memory } = config;
    const warnings: LanguageModelV1CallWarning[] = [];
    for (;;) {
      const withTools = !this.promptGuided && (request.tools?.length ?? 0) > 0;
      const stream = wantStream && !(withTools && memory.toolsWithoutStreaming === true);
      const plan = buildRequestBody(request, {
        modelId: config.modelId,
        provider: config.provider,
        profile: config.profile,
        settings: config.settings,
        promptGuided: this.promptGuided,
        degraded: memory.degraded,
        stream,
      });
      const sent = await this.send(
        request,
        {
          url: config.url,
          body: plan.body,
          stream,
          headers: this.keyHeader(),
        },
        this.errorContext(request),
      );
      if ('response' in sent)
        return { response: sent.response, plan, warnings: [...warnings, ...plan.warnings], streamed: stream };
      const { error } = sent;
      if (stream && plan.nativeTools && error.providerKind === 'tools_unsupported_in_stream') {
        memory.toolsWithoutStreaming = true;
        warnings.push({
          type: 'unsupported_setting',
          setting: 'stream',
          details: `${config.provider} cannot stream with tools for ${config.modelId} (${error.providerMessage ?? error.statusCode}); calls with tools are sent unstreamed from now on`,
        });
        continue;
      }
      if (plan.nativeTools && rejectsTools(error)) {
        memory.promptGuided = true;
        warnings.push({
          type: 'other',
          message: `${config.provider} rejected native tools for ${config.modelId} (${error.providerMessage ?? error.statusCode}); tools now go in the prompt and calls are read from the text`,
        });
        continue;
      }
      const field = implicatedField(error, plan.degradable);
      if (field === undefined) throw error;
      memory.degraded.add(field);
      warnings.push({
        type: 'unsupported_setting',
        setting: field,
        details: `${config.provider} rejected it (${error.providerMessage ?? error.statusCode}); sent in its fallback form from now on`,
      });
    }
  }
}
