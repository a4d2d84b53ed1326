import { checkOptionKeys, createModelProfile, type ModelProfile, optionKeys } from '@tiny/llm';
import type { AiSdkLanguageModel, LooseModel } from './model/ai-sdk-language-model.js';
import { AiSdkLanguageModelV1 } from './model/ai-sdk-model.js';

/** Options of {@link fromAiSdk}. */
export interface FromAiSdkOptions {
  /**
   * Capabilities, merged over the defaults: native tool calling and parallel calls on; native
   * JSON-schema output for providers known to enforce a schema (OpenAI and Azure, Google and Vertex,
   * Anthropic, Mistral), `none` (the tool strategy) otherwise; the Gemini schema projection for
   * Google and Vertex.
   */
  readonly profile?: Partial<ModelProfile> | undefined;
  /**
   * The provider id the model reports. Default: the first dot-separated segment of the wrapped
   * model's `provider` (`google.generative-ai` → `google`).
   */
  readonly provider?: string | undefined;
  /**
   * Strings (API keys) to scrub from error messages and bodies; the bridge never sees the wrapped
   * provider's key, so give it here when a server may echo it.
   */
  readonly secrets?: readonly string[] | undefined;
}

/** Every {@link FromAiSdkOptions} key, with what AI SDK users reach for instead. */
const OPTION_KEYS = optionKeys<FromAiSdkOptions>()(['profile', 'provider', 'secrets'], {
  apiKey: 'the wrapped provider (createOpenAI({ apiKey }) etc.); give the key in `secrets` to scrub it from errors',
  baseURL: 'the wrapped provider (createOpenAI({ baseURL }) etc.)',
  baseUrl: 'the wrapped provider (createOpenAI({ baseURL }) etc.)',
  headers: 'the wrapped provider, or modelSettings.headers in the options of invoke/stream',
  maxSteps: 'limits.maxModelCalls of the AgentHarness',
  stopWhen: 'limits.maxModelCalls of the AgentHarness',
  maxRetries: 'limits.maxRetriesPerCall of the AgentHarness',
  tools: 'tools of the AgentHarness',
  system: "a { role: 'system' } message first in the messages you pass to invoke/stream",
  providerOptions: 'modelSettings.providerOptions in the options of invoke/stream',
  structuredOutputs: "profile: { structuredOutput: 'json_schema' }",
  supportsStructuredOutputs: "profile: { structuredOutput: 'json_schema' }",
  toolCalling: 'profile: { toolCalling }',
  parallelToolCalls: 'profile: { parallelToolCalls }',
  name: 'provider',
});

const jsonSchemaProviders = new Set(['openai', 'azure', 'google', 'vertex', 'anthropic', 'mistral']);
const geminiProviders = new Set(['google', 'vertex']);

/** The default profile `fromAiSdk` gives a model of this provider id (the first segment of its `provider`). */
export function defaultProfile(providerKey: string): Partial<ModelProfile> {
  return {
    toolCalling: true,
    parallelToolCalls: true,
    ...(jsonSchemaProviders.has(providerKey) ? { structuredOutput: 'json_schema' as const } : {}),
    ...(geminiProviders.has(providerKey) ? { schemaTransform: { type: 'gemini_compat' as const } } : {}),
  };
}

/**
 * Wraps an AI SDK language model (`LanguageModelV2`, `V3` or `V4` of `@ai-sdk/provider`, detected
 * by `specificationVersion`) as a `LanguageModelV1`, so any `@ai-sdk/*` provider drives a tiny
 * agent with its own auth and transport. Only the model's `doGenerate` / `doStream` are called;
 * nothing of the `ai` package runs.
 *
 * @throws {TypeError} when `model` is not an AI SDK language model of a known spec version.
 * @throws {InvalidInputError} for an option key it does not take, naming it and what it probably
 * meant (an AI SDK setting such as `maxSteps` or `apiKey` points at where it goes here).
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: FromAiSdkOptions = {}): AiSdkLanguageModelV1 {
  checkOptionKeys('fromAiSdk', options, OPTION_KEYS);
  const version = (model as { specificationVersion?: unknown } | null)?.specificationVersion;
  if (version !== 'v2' && version !== 'v3' && version !== 'v4') {
    throw new TypeError(
      `fromAiSdk: expected an AI SDK language model of spec v2, v3 or v4, got ${JSON.stringify(version)}`,
    );
  }
  const providerKey = model.provider.split('.')[0] ?? model.provider;
  return new AiSdkLanguageModelV1({
    model: model as unknown as LooseModel,
    provider: options.provider ?? providerKey,
    providerKey,
    profile: createModelProfile({ ...defaultProfile(providerKey), ...options.profile }),
    secrets: options.secrets ?? [],
  });
}
