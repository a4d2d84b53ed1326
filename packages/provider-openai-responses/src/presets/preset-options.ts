import type { OpenAIResponsesOptions } from '../create-openai-responses.js';

/** Options of the presets: everything of `createOpenAIResponses`, with `baseURL` defaulted. */
export type OpenAIResponsesPresetOptions = Omit<Partial<OpenAIResponsesOptions>, 'profileOf'>;
