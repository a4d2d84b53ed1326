import type { ModelProfile } from '@tiny/llm';
import type { OpenAIResponsesOptions } from '../create-openai-responses.js';

/** Options of the presets: everything of `createOpenAIResponses`, with `baseURL` defaulted. */
export type OpenAIResponsesPresetOptions = Omit<Partial<OpenAIResponsesOptions>, 'profileOf'>;

/**
 * The default profile of a hosted model with a native call channel (OpenAI, Azure OpenAI): no
 * family grammar reads calls from its text (`toolCallFormats: []`), so `<tool_call>` markup it
 * quotes (from a web page, a file) stays text and runs nothing. Tools with their own format
 * (`xml`, `ptype`) are still read. `profile.toolCallFormats` overrides it.
 * @internal
 */
export function hostedProfile(): Partial<ModelProfile> {
  return { toolCallFormats: [] };
}
