import { createOpenAICompatible, type OpenAICompatibleProvider } from '../create-openai-compatible.js';
import { localServerQuirks } from './local-server-quirks.js';
import { type PresetOptions, withPreset } from './preset-options.js';

/**
 * A llama.cpp server (`llama-server`), default `http://127.0.0.1:8080/v1`. Native tools need
 * `--jinja`; without it the server answers `tools param requires --jinja flag` and the adapter
 * switches the model to prompt-guided tools. The model id is informational for llama-server
 * (it serves the model it loaded).
 */
export function llamacpp(options?: PresetOptions): OpenAICompatibleProvider {
  return createOpenAICompatible(
    withPreset({ ...localServerQuirks, name: 'llamacpp', baseURL: 'http://127.0.0.1:8080/v1' }, options),
  );
}
