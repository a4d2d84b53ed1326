import { createModelProfile, type ModelProfile } from '@tiny/llm';
import { AnthropicMessagesModel } from './model/anthropic-messages-model.js';
import type { AnthropicSettings } from './model/anthropic-settings.js';

/** Options of {@link createAnthropic}. */
export interface AnthropicOptions extends AnthropicSettings {
  /**
   * The API root, up to and including the version (`https://api.anthropic.com/v1`,
   * `http://127.0.0.1:8080/v1`); `/messages` is appended.
   */
  readonly baseURL: string;
  /** The API key; never put in errors, warnings or raw bodies. Absent: no key is sent (local servers). */
  readonly apiKey?: string | undefined;
  /** How the key is sent: `x-api-key` (Anthropic, the default) or `authorization` (`Bearer <key>`). */
  readonly authHeader?: 'x-api-key' | 'authorization' | undefined;
  /** The `anthropic-version` header. Default `2023-06-01`. */
  readonly version?: string | undefined;
  /** Extra headers on every request; a request's own `headers` win. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The provider id models report (`LanguageModelV1.provider`), and the key of their
   * `providerOptions`. Default `anthropic`.
   */
  readonly name?: string | undefined;
  /** The `fetch` to use (a proxy agent, a test double). Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Capabilities per model id, under `profile` and the model's own settings. @internal */
  readonly profileOf?: ((modelId: string) => Partial<ModelProfile>) | undefined;
}

/** Makes models on one Messages API endpoint: call it with a model id. */
export interface AnthropicProvider {
  /** A model; `settings` override the provider's for this model only. */
  (modelId: string, settings?: AnthropicSettings): AnthropicMessagesModel;
  /** The same as calling the provider. */
  messages(modelId: string, settings?: AnthropicSettings): AnthropicMessagesModel;
  /** The provider id its models report. */
  readonly provider: string;
  /** The API root, without a trailing slash. */
  readonly baseURL: string;
}

/**
 * Creates a provider for the Anthropic Messages API (`POST {baseURL}/messages`) over `fetch`, with
 * no vendor SDK: Anthropic itself or any server that speaks the same API (llama.cpp, Ollama, vLLM).
 * The profile defaults to native tool calling with parallel calls and no native JSON-schema
 * output (so structured output takes the tool strategy); the `anthropic` preset declares
 * JSON-schema output for the models that have it.
 *
 * @throws {TypeError} when `baseURL` is not an absolute URL.
 */
export function createAnthropic(options: AnthropicOptions): AnthropicProvider {
  let parsed: URL;
  try {
    parsed = new URL(options.baseURL);
  } catch {
    throw new TypeError(`createAnthropic: baseURL must be an absolute URL, got "${options.baseURL}"`);
  }
  const baseURL = parsed.href.replace(/\/+$/, '');
  const provider = options.name ?? 'anthropic';
  const messages = (modelId: string, settings?: AnthropicSettings): AnthropicMessagesModel =>
    new AnthropicMessagesModel({
      provider,
      modelId,
      url: `${baseURL}/messages`,
      apiKey: options.apiKey,
      authHeader: options.authHeader ?? 'x-api-key',
      version: options.version ?? '2023-06-01',
      headers: options.headers ?? {},
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      profile: createModelProfile({ ...options.profileOf?.(modelId), ...options.profile, ...settings?.profile }),
      maxTokens: settings?.maxTokens ?? options.maxTokens ?? 4096,
      providerOptions: { ...options.providerOptions, ...settings?.providerOptions },
    });
  return Object.assign(messages, { messages, provider, baseURL });
}
