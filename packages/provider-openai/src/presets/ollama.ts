import { createOpenAICompatible, type OpenAICompatibleProvider } from '../create-openai-compatible.js';
import { localServerQuirks } from './local-server-quirks.js';
import { type PresetOptions, withPreset } from './preset-options.js';

/**
 * An Ollama server's OpenAI endpoint, default `http://127.0.0.1:11434/v1`. A model whose
 * template has no tools answers 400 `… does not support tools`; the adapter then switches it to
 * prompt-guided tools. Ollama streams each call whole and may reuse index 0 for every call
 * (told apart by id), and reads replayed reasoning from `reasoning`.
 */
export function ollama(options?: PresetOptions): OpenAICompatibleProvider {
  return createOpenAICompatible(
    withPreset(
      { ...localServerQuirks, name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1', replayReasoning: 'reasoning' },
      options,
    ),
  );
}
