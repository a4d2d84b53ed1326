import {
  checkResponsesOptions,
  createOpenAIResponses,
  type OpenAIResponsesProvider,
} from '../create-openai-responses.js';
import { hostedProfile, type OpenAIResponsesPresetOptions } from './preset-options.js';

/**
 * The OpenAI Responses API (`https://api.openai.com/v1`), keyed by `apiKey` or the
 * `OPENAI_API_KEY` environment variable (`OPENAI_BASE_URL` overrides the URL). Stateless by
 * default (`store: false`, encrypted reasoning replayed from the transcript).
 * @throws {InvalidInputError} for an unknown option key (`baseUrl` → `baseURL`) or a malformed `baseURL`.
 */
export function openaiResponses(options: OpenAIResponsesPresetOptions = {}): OpenAIResponsesProvider {
  checkResponsesOptions('openaiResponses()', options);
  const env = typeof process === 'undefined' ? {} : process.env;
  return createOpenAIResponses({
    ...options,
    baseURL: options.baseURL ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: options.apiKey ?? env.OPENAI_API_KEY,
    profileOf: hostedProfile,
  });
}
