import type { AnthropicOptions } from '../create-anthropic.js';

/** Options of the presets: everything of `createAnthropic`, with `baseURL` defaulted. */
export type AnthropicPresetOptions = Omit<Partial<AnthropicOptions>, 'profileOf'>;
