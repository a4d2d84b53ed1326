import { checkOptionKeys, createModelProfile, InvalidInputError, type ModelProfile, optionKeys } from '@tiny/llm';
import { checkHttpLimits, type HttpLimits, parseBaseURL } from '@tiny/provider-utils';
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
  /**
   * The `fetch` to use (a proxy agent, a test double). Default `globalThis.fetch`. It is called
   * with `redirect: 'manual'`: a same-origin `307`/`308` is followed by the adapter, any other
   * redirect fails the call with kind `redirect` before the key or the prompt reaches its target,
   * and an answer a custom fetch got by following a redirect to another origin itself is refused.
   */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /**
   * Bounds on what the server sends back: the size of one SSE line or event (default 4 MiB) and of
   * a whole response (64 MiB), the time without a meaningful event (2 minutes; `ping` events do
   * not count) and of a whole response (30 minutes). See `HttpLimits`; `Infinity` turns one off.
   */
  readonly limits?: HttpLimits | undefined;
  /** Capabilities per model id, under `profile` and the model's own settings. @internal */
  readonly profileOf?: ((modelId: string) => Partial<ModelProfile>) | undefined;
}

/** Names the AI SDK's `createAnthropic` and the Anthropic SDK use, mapped to ours. */
const SETTING_MISTAKES: Readonly<Record<string, string>> = {
  max_tokens: 'maxTokens',
  maxOutputTokens: 'maxTokens',
  thinking: "providerOptions: { thinking: { type: 'enabled', budget_tokens } }",
  sendReasoning: 'providerOptions',
  cacheControl: 'providerOptions',
  temperature: 'modelSettings.temperature in the options of invoke/stream',
};

/** Every {@link AnthropicSettings} key (per model). */
const SETTING_KEYS = optionKeys<AnthropicSettings>()(['profile', 'maxTokens', 'providerOptions'], SETTING_MISTAKES);

/** Every {@link AnthropicOptions} key. */
const OPTION_KEYS = optionKeys<AnthropicOptions>()(
  [
    'profile',
    'maxTokens',
    'providerOptions',
    'baseURL',
    'apiKey',
    'authHeader',
    'version',
    'headers',
    'name',
    'fetch',
    'limits',
    'profileOf',
  ],
  {
    ...SETTING_MISTAKES,
    baseUrl: 'baseURL',
    base_url: 'baseURL',
    url: 'baseURL',
    endpoint: 'baseURL',
    api_key: 'apiKey',
    authToken: "apiKey with authHeader: 'authorization'",
    anthropicVersion: 'version',
    defaultHeaders: 'headers',
    provider: 'name',
    maxRetries: 'limits.maxRetriesPerCall of the AgentHarness',
    timeout: 'limits: { idleTimeoutMs, totalTimeoutMs }, or limits.wallClockMs of the AgentHarness',
  },
);

/**
 * Refuses a key `createAnthropic` (or a preset) does not take, naming it and what it probably
 * meant (`baseUrl` → `baseURL`). @internal
 */
export function checkAnthropicOptions(entryPoint: string, options: unknown): void {
  checkOptionKeys(entryPoint, options, OPTION_KEYS);
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
 * @throws {InvalidInputError} when `baseURL` is not an absolute http(s) URL (or carries a query), a
 * `limits` bound is not a positive number,
 * or for an option key it does not take (named, with the one it probably meant), also in the
 * per-model settings.
 */
export function createAnthropic(options: AnthropicOptions): AnthropicProvider {
  const entryPoint = options?.name === undefined ? 'createAnthropic' : `${options.name}()`;
  checkAnthropicOptions(entryPoint, options);
  const parsed = parseBaseURL(options.baseURL, entryPoint, {
    example: 'https://api.anthropic.com/v1',
    path: '/messages',
  });
  const wrongLimit = checkHttpLimits(options.limits);
  if (wrongLimit !== undefined) throw new InvalidInputError({ entryPoint, reason: wrongLimit });
  const baseURL = parsed.href.replace(/\/+$/, '');
  const provider = options.name ?? 'anthropic';
  const messages = (modelId: string, settings?: AnthropicSettings): AnthropicMessagesModel => {
    checkOptionKeys(`${provider}(${JSON.stringify(modelId)})`, settings, SETTING_KEYS, { prefix: 'settings.' });
    return new AnthropicMessagesModel({
      provider,
      modelId,
      url: `${baseURL}/messages`,
      apiKey: options.apiKey,
      authHeader: options.authHeader ?? 'x-api-key',
      version: options.version ?? '2023-06-01',
      headers: options.headers ?? {},
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      // Every system message goes into the `system` field (the API has no system role among its
      // messages): a wire fact, not a capability a profile may override.
      profile: createModelProfile({
        ...options.profileOf?.(modelId),
        ...options.profile,
        ...settings?.profile,
        systemMessages: 'hoisted',
      }),
      maxTokens: settings?.maxTokens ?? options.maxTokens ?? 4096,
      providerOptions: { ...options.providerOptions, ...settings?.providerOptions },
      limits: options.limits,
    });
  };
  return Object.assign(messages, { messages, provider, baseURL });
}
