import type { OpenAICompatibleSettings } from '../model/openai-compatible-settings.js';

/**
 * What the local servers (vLLM, Ollama, LM Studio, llama.cpp) share: a named `tool_choice` is sent
 * as `"required"` with the tools narrowed, JSON mode as a permissive `json_schema` (LM Studio
 * rejects `json_object`), and replayed tool-call arguments as valid JSON (their chat templates
 * parse them). Inline `<think>` extraction is on for them by the URL rule.
 * @internal
 */
export const localServerQuirks: OpenAICompatibleSettings = {
  namedToolChoice: false,
  jsonObjectFormat: false,
  replayArguments: 'valid_json',
  profile: { toolCalling: true, parallelToolCalls: true, structuredOutput: 'json_schema', toolFormats: ['json'] },
};
