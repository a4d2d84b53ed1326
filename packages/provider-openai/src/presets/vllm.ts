import { createOpenAICompatible, type OpenAICompatibleProvider } from '../create-openai-compatible.js';
import { localServerQuirks } from './local-server-quirks.js';
import { type PresetOptions, withPreset } from './preset-options.js';

/**
 * A vLLM server (`vllm serve`), default `http://127.0.0.1:8000/v1`. Native tools need the server
 * started with `--enable-auto-tool-choice --tool-call-parser <parser>`; without them vLLM answers
 * 400 and the adapter switches the model to prompt-guided tools. Reasoning arrives in
 * `reasoning_content` / `reasoning` with a `--reasoning-parser`, else inline `<think>` is extracted.
 */
export function vllm(options?: PresetOptions): OpenAICompatibleProvider {
  return createOpenAICompatible(
    withPreset({ ...localServerQuirks, name: 'vllm', baseURL: 'http://127.0.0.1:8000/v1' }, options),
  );
}
