import {
  checkOpenAICompatibleOptions,
  createOpenAICompatible,
  type OpenAICompatibleProvider,
} from '../create-openai-compatible.js';
import { MissingApiKeyError } from '../errors/missing-api-key-error.js';
import { type PresetOptions, withPreset } from './preset-options.js';

/**
 * The OpenAI API: `https://api.openai.com/v1`, the key from `apiKey` or else the `OPENAI_API_KEY`
 * environment variable (read when the preset is called). Native tools, parallel calls, strict
 * `json_schema` output; `maxTokens` goes out as `max_completion_tokens` (reasoning models reject
 * `max_tokens`); no inline `<think>` extraction; no text calls (`toolCallFormats: []`: `<tool_call>`
 * markup the model quotes stays text).
 *
 * ```ts
 * const model = openai()('gpt-4o-mini');
 * ```
 * @throws {MissingApiKeyError} when there is no key (none passed, `OPENAI_API_KEY` unset or empty).
 * @throws {InvalidInputError} when `baseURL` is not an absolute http(s) URL, or for an unknown option key.
 */
export function openai(options?: PresetOptions): OpenAICompatibleProvider {
  // A mistyped key (`apikey`, `baseUrl`) is named before the missing-key check can mislead.
  checkOpenAICompatibleOptions('openai()', options);
  const apiKey = options?.apiKey ?? (typeof process === 'undefined' ? undefined : process.env.OPENAI_API_KEY);
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new MissingApiKeyError({ provider: 'openai', envVar: 'OPENAI_API_KEY' });
  }
  return createOpenAICompatible(
    withPreset(
      {
        name: 'openai',
        baseURL: 'https://api.openai.com/v1',
        apiKey,
        maxTokensField: 'max_completion_tokens',
        extractThinking: false,
        // A native call channel: no family grammar reads calls from the text (quoted markup stays text).
        profile: {
          toolCalling: true,
          parallelToolCalls: true,
          structuredOutput: 'json_schema',
          toolFormats: ['json'],
          toolCallFormats: [],
        },
      },
      { ...options, apiKey },
    ),
  );
}
