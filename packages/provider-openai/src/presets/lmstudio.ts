import { createOpenAICompatible, type OpenAICompatibleProvider } from '../create-openai-compatible.js';
import { localServerQuirks } from './local-server-quirks.js';
import { type PresetOptions, withPreset } from './preset-options.js';

/**
 * LM Studio's local server, default `http://127.0.0.1:1234/v1`. It takes `json_schema` but not
 * `json_object` (JSON mode goes out as a permissive schema), and string tool choices only (a
 * named choice goes out as `"required"` with the tools narrowed).
 */
export function lmstudio(options?: PresetOptions): OpenAICompatibleProvider {
  return createOpenAICompatible(
    withPreset({ ...localServerQuirks, name: 'lmstudio', baseURL: 'http://127.0.0.1:1234/v1' }, options),
  );
}
