/**
 * OpenAI-compatible LanguageModelV1 adapter for OpenAI, vLLM, Ollama, LM Studio and llama.cpp, over fetch.
 * @module @tiny/provider-openai
 */
export { ModelCallError } from '@tiny/llm';
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@tiny/provider-utils';
export {
  createOpenAICompatible,
  type OpenAICompatibleOptions,
  type OpenAICompatibleProvider,
} from './create-openai-compatible.js';
export { MissingApiKeyError } from './errors/missing-api-key-error.js';
export { OpenAICompatibleCallError } from './errors/openai-compatible-call-error.js';
export type {
  AutoProfileResult,
  AutoProfiler,
  AutoProfileTarget,
  ModelProfiledReport,
} from './model/auto-profile.js';
export {
  type OpenAICompatibleCapabilities,
  OpenAICompatibleChatModel,
} from './model/openai-compatible-chat-model.js';
export type { OpenAICompatibleSettings, SchemaField } from './model/openai-compatible-settings.js';
export { llamacpp } from './presets/llamacpp.js';
export { lmstudio } from './presets/lmstudio.js';
export { ollama } from './presets/ollama.js';
export { openai } from './presets/openai.js';
export type { PresetOptions } from './presets/preset-options.js';
export { vllm } from './presets/vllm.js';
export type {
  OpenAICompatibleProviderOptions,
  OpenRouterReasoningOptions,
} from './request/openai-compatible-provider-options.js';
