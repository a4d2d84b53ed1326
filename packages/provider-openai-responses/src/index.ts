/**
 * OpenAI Responses API (`POST /v1/responses`) LanguageModelV1 adapter for OpenAI, Azure OpenAI and
 * local servers that speak /v1/responses, over fetch.
 * @module @tiny/provider-openai-responses
 */
export { ModelCallError } from '@tiny/llm';
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@tiny/provider-utils';
export {
  createOpenAIResponses,
  type OpenAIResponsesOptions,
  type OpenAIResponsesProvider,
} from './create-openai-responses.js';
export { OpenAIResponsesCallError } from './errors/openai-responses-call-error.js';
export { OpenAIResponsesModel } from './model/openai-responses-model.js';
export type { OpenAIResponsesSettings } from './model/openai-responses-settings.js';
export { type AzureResponsesOptions, azureResponses } from './presets/azure.js';
export { type LocalResponsesOptions, localResponses } from './presets/local-responses.js';
export { openaiResponses } from './presets/openai.js';
export type { OpenAIResponsesPresetOptions } from './presets/preset-options.js';
export type { OpenAIResponsesProviderOptions } from './request/responses-provider-options.js';
