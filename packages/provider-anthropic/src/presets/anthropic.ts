import type { ModelProfile } from '@tiny/llm';
import { type AnthropicProvider, checkAnthropicOptions, createAnthropic } from '../create-anthropic.js';
import type { AnthropicPresetOptions } from './preset-options.js';

/** Claude models with native JSON-schema output (`output_config.format`): 4.5 and later, and Opus 4.1. */
const structuredOutputModels =
  /^claude-(?:(?:opus|sonnet|haiku)-4-(?:[5-9]|\d{2})|opus-4-1|(?:opus|sonnet|haiku)-(?:[5-9]|\d{2}))(?:\b|-|$)/;

/** True when the Claude model id has native JSON-schema output. @internal */
export function hasNativeStructuredOutput(modelId: string): boolean {
  return structuredOutputModels.test(modelId);
}

/** Hosted Claude calls tools natively only: no family grammar reads calls from its text (`toolCallFormats: []`). */
function claudeProfile(modelId: string): Partial<ModelProfile> {
  return hasNativeStructuredOutput(modelId)
    ? { structuredOutput: 'json_schema', toolCallFormats: [] }
    : { toolCallFormats: [] };
}

/**
 * The Anthropic API (`https://api.anthropic.com/v1`), keyed by `apiKey` or the
 * `ANTHROPIC_API_KEY` environment variable (`ANTHROPIC_BASE_URL` overrides the URL). Models of
 * Claude 4.5 and later (and Opus 4.1) declare native JSON-schema output; older ones take the tool
 * strategy.
 * @throws {InvalidInputError} for an unknown option key (`baseUrl` → `baseURL`) or a malformed `baseURL`.
 */
export function anthropic(options: AnthropicPresetOptions = {}): AnthropicProvider {
  checkAnthropicOptions('anthropic()', options);
  const env = typeof process === 'undefined' ? {} : process.env;
  return createAnthropic({
    ...options,
    baseURL: options.baseURL ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com/v1',
    apiKey: options.apiKey ?? env.ANTHROPIC_API_KEY,
    profileOf: claudeProfile,
  });
}
