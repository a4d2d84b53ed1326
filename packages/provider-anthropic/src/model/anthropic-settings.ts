import type { ModelProfile } from '@tiny/llm';
import type { AnthropicProviderOptions } from '../request/anthropic-provider-options.js';

/** Per-provider or per-model settings; per-model values win. */
export interface AnthropicSettings {
  /** Capabilities, merged over the preset's and passed to `createModelProfile`. */
  readonly profile?: Partial<ModelProfile> | undefined;
  /** `max_tokens` when a request sets none (the API requires it). Default 4096. */
  readonly maxTokens?: number | undefined;
  /** Provider options sent with every request of the model; a request's own win key by key. */
  readonly providerOptions?: AnthropicProviderOptions | undefined;
}
