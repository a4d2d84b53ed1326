import { type AnthropicProvider, createAnthropic } from '../create-anthropic.js';
import type { AnthropicPresetOptions } from './preset-options.js';

/**
 * A local server that speaks the Messages API (llama.cpp's `llama-server` at
 * `http://127.0.0.1:8080/v1`, the default; Ollama at `http://127.0.0.1:11434/v1`; vLLM at
 * `http://127.0.0.1:8000/v1`), without a key unless one is given. The provider id is `local`.
 * Native tool calling, no native JSON-schema output (structured output takes the tool strategy).
 */
export function localMessages(options: AnthropicPresetOptions = {}): AnthropicProvider {
  return createAnthropic({ name: 'local', ...options, baseURL: options.baseURL ?? 'http://127.0.0.1:8080/v1' });
}
