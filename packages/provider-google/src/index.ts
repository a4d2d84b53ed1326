/**
 * Google Gemini LanguageModelV1 adapter for the Gemini API (AI Studio) and Vertex AI generateContent, over fetch.
 * @module @tiny/provider-google
 */
export { ModelCallError } from '@tiny/llm';
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@tiny/provider-utils';
export {
  createGoogle,
  createVertex,
  type GoogleOptions,
  type GoogleProvider,
  type VertexOptions,
} from './create-google.js';
export { GoogleCallError } from './errors/google-call-error.js';
export { GoogleSchemaError } from './errors/google-schema-error.js';
export { GoogleGenerativeModel } from './model/google-generative-model.js';
export type { GoogleSettings } from './model/google-settings.js';
export type { GoogleProviderOptions } from './request/google-provider-options.js';
export type { GoogleSchemaMode } from './request/to-gemini-schema.js';
