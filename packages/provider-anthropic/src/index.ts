/**
 * Anthropic Messages API LanguageModelV1 adapter for Claude and local servers that speak /v1/messages, over fetch.
 * @module @tiny/provider-anthropic
 */
export { ModelCallError } from '@tiny/llm';
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@tiny/provider-utils';
export { type AnthropicOptions, type AnthropicProvider, createAnthropic } from './create-anthropic.js';
export { AnthropicCallError } from './errors/anthropic-call-error.js';
export { AnthropicMessagesModel } from './model/anthropic-messages-model.js';
export type { AnthropicSettings } from './model/anthropic-settings.js';
export { anthropic } from './presets/anthropic.js';
export { localMessages } from './presets/local-messages.js';
export type { AnthropicPresetOptions } from './presets/preset-options.js';
export type { AnthropicCacheControl, AnthropicProviderOptions } from './request/anthropic-provider-options.js';
