/**
 * Wraps any Vercel AI SDK language model (LanguageModelV2, V3 or V4 of `@ai-sdk/provider`) as a `@tiny/llm` LanguageModelV1.
 * @module @tiny/provider-ai-sdk
 */
export { ModelCallError } from '@tiny/llm';
export { defaultProfile, type FromAiSdkOptions, fromAiSdk } from './from-ai-sdk.js';
export type { AiSdkLanguageModel } from './model/ai-sdk-language-model.js';
export { AiSdkLanguageModelV1 } from './model/ai-sdk-model.js';
