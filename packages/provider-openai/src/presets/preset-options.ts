import type { OpenAICompatibleOptions } from '../create-openai-compatible.js';

/** Options of a preset: anything `createOpenAICompatible` takes; `baseURL` defaults per server. */
export type PresetOptions = Partial<OpenAICompatibleOptions>;

/**
 * Merges preset defaults under the caller's options, profiles field by field.
 * @internal
 */
export function withPreset(
  defaults: OpenAICompatibleOptions,
  options: PresetOptions | undefined,
): OpenAICompatibleOptions {
  return { ...defaults, ...options, profile: { ...defaults.profile, ...options?.profile } };
}
