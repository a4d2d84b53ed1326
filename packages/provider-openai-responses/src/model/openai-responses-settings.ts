import type { ModelProfile } from '@tiny/llm';
import type { OpenAIResponsesProviderOptions } from '../request/responses-provider-options.js';

/** Per-provider or per-model settings; per-model values win. */
export interface OpenAIResponsesSettings {
  /** Capabilities, merged over the preset's and passed to `createModelProfile`. */
  readonly profile?: Partial<ModelProfile> | undefined;
  /** Provider options sent with every request of the model; a request's own win key by key. */
  readonly providerOptions?: OpenAIResponsesProviderOptions | undefined;
}
