import type {
  LanguageModelV1,
  LanguageModelV1Request,
  LanguageModelV1Response,
  LanguageModelV1StreamResult,
  ModelProfile,
} from '@tiny/llm';
import { toModelCallError } from '../errors/to-model-call-error.js';
import { toCallOptions } from '../request/to-call-options.js';
import { mapGenerateResult } from '../response/map-generate-result.js';
import { mapWarnings } from '../response/map-result-fields.js';
import { mapStream } from '../stream/map-stream.js';
import type { LooseModel } from './ai-sdk-language-model.js';

/** Everything the bridge needs; built by `fromAiSdk`. @internal */
export interface AiSdkModelConfig {
  readonly model: LooseModel;
  readonly provider: string;
  readonly providerKey: string;
  readonly profile: ModelProfile;
  readonly secrets: readonly string[];
}

/**
 * An AI SDK language model seen as a `LanguageModelV1`. Create one with `fromAiSdk(model)`. Only
 * the wrapped model's `doGenerate` and `doStream` run: the AI SDK's own loop (`generateText`,
 * tool execution, retries) is never used, so tiny's harness decides what runs.
 */
export class AiSdkLanguageModelV1 implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  /** The wrapped provider's id, first segment (`google`, `anthropic`, `openai`, ...). */
  readonly provider: string;
  readonly modelId: string;
  /** The model's capabilities. */
  readonly profile: ModelProfile;
  private readonly config: AiSdkModelConfig;

  /** @internal Use `fromAiSdk(model)` instead. */
  constructor(config: AiSdkModelConfig) {
    this.config = config;
    this.provider = config.provider;
    this.modelId = config.model.modelId;
    this.profile = config.profile;
  }

  /**
   * Runs the wrapped model's `doGenerate`.
   *
   * @throws {ModelCallError} for what the wrapped model throws (an `APICallError` keeps its status,
   *   retryability and `retry-after`).
   * @throws the signal's reason when `abortSignal` fires.
   */
  async doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response> {
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    const { options, warnings } = this.options(request);
    let result: unknown;
    try {
      result = await this.config.model.doGenerate(options);
    } catch (error) {
      if (request.abortSignal?.aborted) throw request.abortSignal.reason;
      throw toModelCallError(error, this.provider, this.config.secrets);
    }
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    const mapped = mapGenerateResult(result);
    const raw = (result as { request?: { body?: unknown } } | undefined)?.request?.body;
    return { ...mapped, warnings: [...warnings, ...mapped.warnings], request: { body: raw ?? options } };
  }

  /**
   * Runs the wrapped model's `doStream`; the warnings of its `stream-start` part are read before
   * this resolves. Failures after that arrive as an `error` part.
   *
   * @throws {ModelCallError} when the call fails before the stream starts.
   * @throws the signal's reason when `abortSignal` fires (also from the iteration).
   */
  async doStream(request: LanguageModelV1Request): Promise<LanguageModelV1StreamResult> {
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    const { options, warnings } = this.options(request);
    let result: Awaited<ReturnType<LooseModel['doStream']>>;
    try {
      result = await this.config.model.doStream(options);
    } catch (error) {
      if (request.abortSignal?.aborted) throw request.abortSignal.reason;
      throw toModelCallError(error, this.provider, this.config.secrets);
    }
    const reader = result.stream.getReader();
    const first: unknown[] = [];
    let streamWarnings: unknown;
    try {
      const head = await reader.read();
      if (!head.done) {
        const part = head.value as { type?: unknown; warnings?: unknown };
        if (part?.type === 'stream-start') streamWarnings = part.warnings;
        else first.push(head.value);
      }
    } catch (error) {
      if (request.abortSignal?.aborted) throw request.abortSignal.reason;
      first.push({ type: 'error', error });
    }
    const raw = result as { request?: { body?: unknown }; response?: { headers?: Record<string, string> } };
    return {
      stream: mapStream(reader, first, {
        provider: this.provider,
        secrets: this.config.secrets,
        signal: request.abortSignal,
      }),
      warnings: [...warnings, ...mapWarnings(streamWarnings)],
      request: { body: raw.request?.body ?? options },
      ...(raw.response?.headers === undefined ? {} : { response: { headers: raw.response.headers } }),
    };
  }

  private options(request: LanguageModelV1Request) {
    return toCallOptions(request, {
      version: this.config.model.specificationVersion,
      providerKey: this.config.providerKey,
      profile: this.config.profile,
    });
  }
}
