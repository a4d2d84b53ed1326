export { ModelCallError } from '@tiny/llm';
export { defaultProfile, type FromAiSdkOptions, fromAiSdk } from './from-ai-sdk.js';
export type { AiSdkLanguageModel } from './model/ai-sdk-language-model.js';
export { AiSdkLanguageModelV1 } from './model/ai-sdk-model.js';
