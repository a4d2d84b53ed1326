/**
 * The part of an AI SDK language model (`LanguageModelV2`, `LanguageModelV3` or `LanguageModelV4`
 * of `@ai-sdk/provider`) the bridge relies on, declared structurally so this package needs no
 * runtime code from the AI SDK and accepts a model of any of the three majors. Method parameters
 * are `never` so every spec version's call options fit (methods are checked bivariantly).
 */
export interface AiSdkLanguageModel {
  /** `v2`, `v3` or `v4`; the bridge speaks each one's call options, usage and finish reasons. */
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  /** The AI SDK provider id (`google.generative-ai`, `anthropic.messages`, `openai.chat`, ...). */
  readonly provider: string;
  readonly modelId: string;
  /** The AI SDK's one-shot call: the bridge reads the result's content, finish reason and usage. */
  doGenerate(options: never): PromiseLike<unknown>;
  /** The AI SDK's streamed call: the bridge reads the parts of `stream` and maps them to tiny stream parts. */
  doStream(options: never): PromiseLike<{ readonly stream: ReadableStream<unknown> }>;
}

/** A call as the bridge builds it: the common shape of V2, V3 and V4 call options. @internal */
export type AiSdkCallOptions = Record<string, unknown> & { readonly prompt: unknown[] };

/** The model, seen with the bridge's loose call shape. @internal */
export interface LooseModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: AiSdkCallOptions): PromiseLike<unknown>;
  doStream(
    options: AiSdkCallOptions,
  ): PromiseLike<{ readonly stream: ReadableStream<unknown>; readonly [key: string]: unknown }>;
}
