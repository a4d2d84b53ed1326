import { checkOptionKeys, createModelProfile, InvalidInputError, type ModelProfile, optionKeys } from '@tiny/llm';
import { checkHttpLimits, type HttpLimits, parseBaseURL } from '@tiny/provider-utils';
import { type AutoProfiler, applyProbed, autoProfileOf } from './model/auto-profile.js';
import { type ModelMemory, OpenAICompatibleChatModel } from './model/openai-compatible-chat-model.js';
import { type OpenAICompatibleSettings, resolveSettings } from './model/openai-compatible-settings.js';

/** Options of {@link createOpenAICompatible}. */
export interface OpenAICompatibleOptions extends OpenAICompatibleSettings {
  /**
   * The API root, up to and including the version (`https://api.openai.com/v1`,
   * `http://127.0.0.1:11434/v1`); `/chat/completions` is appended.
   */
  readonly baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never put in errors, warnings or raw bodies. */
  readonly apiKey?: string | undefined;
  /** Extra headers on every request; a request's own `headers` win. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The provider id models report (`LanguageModelV1.provider`), and the key of their
   * `providerOptions`. Default `openai-compatible`.
   */
  readonly name?: string | undefined;
  /**
   * The `fetch` to use (a proxy agent, a test double). Default `globalThis.fetch`. It is called
   * with `redirect: 'manual'`: a same-origin `307`/`308` is followed by the adapter, any other
   * redirect fails the call with kind `redirect` before anything reaches its target, and an answer
   * a custom fetch got by following a redirect to another origin itself is refused.
   */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /**
   * Bounds on what the server sends back: the size of one SSE line or event (default 4 MiB) and of
   * a whole response (64 MiB), the time without a meaningful event (2 minutes; keep-alives do not
   * count) and of a whole response (30 minutes). See `HttpLimits`; `Infinity` turns one off.
   */
  readonly limits?: HttpLimits | undefined;
  /**
   * Reads the server before the first run and sets the profile from what it says (opt-in): pass
   * `autoProfile` of `@tiny/local` (`llamacpp({ autoProfile })`), which reads llama.cpp `/props`,
   * Ollama `/api/show`, LM Studio `/api/v0/models` or vLLM `/v1/models` and the chat template.
   * Each model probes once per profiler, base URL and model id (`model.profileModel()`; an
   * `AgentHarness` calls it at the start of a run and reports the first result as one
   * `model_profiled` event). What the probe decides (`toolCalling`, `systemPrompt`,
   * `toolCallFormats`) wins over `profile`; an explicit `systemPrompt` setting wins over the probe.
   * A probe that fails leaves the profile as it was, with the reason in the event.
   */
  readonly autoProfile?: AutoProfiler | undefined;
}

const SETTING_KEY_LIST = [
  'profile',
  'namedToolChoice',
  'jsonObjectFormat',
  'extractThinking',
  'maxTokensField',
  'streamUsage',
  'replayReasoning',
  'replayArguments',
  'systemPrompt',
  'schemaField',
] as const;

/** Names the AI SDK's `createOpenAI`/`createOpenAICompatible` and the OpenAI SDK use, mapped to ours. */
const SETTING_MISTAKES: Readonly<Record<string, string>> = {
  structuredOutputs: "profile: { structuredOutput: 'json_schema' }",
  supportsStructuredOutputs: "profile: { structuredOutput: 'json_schema' }",
  includeUsage: 'streamUsage',
  parallelToolCalls: 'profile: { parallelToolCalls }',
  toolCalling: 'profile: { toolCalling }',
  reasoningEffort: "modelSettings.providerOptions (InvokeOptions), e.g. { 'openai-compatible': { reasoning_effort } }",
  maxTokens: 'modelSettings.maxTokens in the options of invoke/stream',
  temperature: 'modelSettings.temperature in the options of invoke/stream',
};

/** Every {@link OpenAICompatibleSettings} key (per model). */
const SETTING_KEYS = optionKeys<OpenAICompatibleSettings>()(SETTING_KEY_LIST, SETTING_MISTAKES);

/** Every {@link OpenAICompatibleOptions} key, with the names other clients give them. */
const OPTION_KEYS = optionKeys<OpenAICompatibleOptions>()(
  [...SETTING_KEY_LIST, 'baseURL', 'apiKey', 'headers', 'name', 'fetch', 'limits', 'autoProfile'],
  {
    ...SETTING_MISTAKES,
    baseUrl: 'baseURL',
    baseUri: 'baseURL',
    base_url: 'baseURL',
    url: 'baseURL',
    endpoint: 'baseURL',
    host: 'baseURL',
    api_key: 'apiKey',
    key: 'apiKey',
    token: 'apiKey',
    defaultHeaders: 'headers',
    organization: "headers: { 'OpenAI-Organization': … }",
    project: "headers: { 'OpenAI-Project': … }",
    provider: 'name',
    maxRetries: 'limits.maxRetriesPerCall of the AgentHarness',
    timeout: 'limits: { idleTimeoutMs, totalTimeoutMs }, or limits.wallClockMs of the AgentHarness',
    queryParams: 'baseURL (no query allowed) or a custom fetch',
  },
);

/**
 * Refuses a key `createOpenAICompatible` (or a preset) does not take, naming it and what it
 * probably meant (`baseUrl` → `baseURL`). @internal
 */
export function checkOpenAICompatibleOptions(entryPoint: string, options: unknown): void {
  checkOptionKeys(entryPoint, options, OPTION_KEYS);
}

/** Makes chat models on one OpenAI-compatible endpoint: call it with a model id. */
export interface OpenAICompatibleProvider {
  /** A chat model; `settings` override the provider's for this model only. */
  (modelId: string, settings?: OpenAICompatibleSettings): OpenAICompatibleChatModel;
  /** The same as calling the provider. */
  chatModel(modelId: string, settings?: OpenAICompatibleSettings): OpenAICompatibleChatModel;
  /** The provider id its models report. */
  readonly provider: string;
  /** The API root, without a trailing slash. */
  readonly baseURL: string;
}

/**
 * Creates a provider for any server that speaks OpenAI chat completions over HTTP, with `fetch`
 * and no vendor SDK. Models share what the adapter learns about their id (a server that rejected
 * native tools, a field sent in its fallback form), so a second instance does not repeat the
 * failed request. The profile defaults to native tool calling, parallel calls and
 * `json_schema` structured output; presets (`openai`, `vllm`, `ollama`, `lmstudio`, `llamacpp`)
 * set profiles and quirks per server.
 *
 * @throws {InvalidInputError} when `baseURL` is not an absolute http(s) URL, a `limits` bound is
 * not a positive number, or for an option key
 * it does not take (named, with the one it probably meant: `baseUrl` → `baseURL`), also in the
 * per-model settings.
 */
export function createOpenAICompatible(options: OpenAICompatibleOptions): OpenAICompatibleProvider {
  const entryPoint = options?.name === undefined ? 'createOpenAICompatible' : `${options.name}()`;
  checkOpenAICompatibleOptions(entryPoint, options);
  const parsed = parseBaseURL(options.baseURL, entryPoint, {
    example: 'http://127.0.0.1:11434/v1',
    path: '/chat/completions',
  });
  const wrongLimit = checkHttpLimits(options.limits);
  if (wrongLimit !== undefined) throw new InvalidInputError({ entryPoint, reason: wrongLimit });
  if (options.autoProfile !== undefined && typeof options.autoProfile !== 'function') {
    throw new InvalidInputError({
      entryPoint,
      reason:
        "autoProfile takes a profiler, not a flag: import { autoProfile } from '@tiny/local' and pass { autoProfile }",
    });
  }
  const baseURL = parsed.href.replace(/\/+$/, '');
  const provider = options.name ?? 'openai-compatible';
  const memories = new Map<string, ModelMemory>();
  const memoryOf = (modelId: string): ModelMemory => {
    let memory = memories.get(modelId);
    if (memory === undefined) {
      memory = { promptGuided: false, degraded: new Set(), textSequence: 0 };
      memories.set(modelId, memory);
    }
    return memory;
  };
  const chatModel = (modelId: string, settings?: OpenAICompatibleSettings): OpenAICompatibleChatModel => {
    checkOptionKeys(`${provider}(${JSON.stringify(modelId)})`, settings, SETTING_KEYS, { prefix: 'settings.' });
    const systemPrompt = settings?.systemPrompt ?? options.systemPrompt;
    const headers = options.headers ?? {};
    const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const given = createModelProfile({ structuredOutput: 'json_schema', ...options.profile, ...settings?.profile });
    const profileAfter = (probed: Partial<ModelProfile> | undefined): ModelProfile => {
      const profile = applyProbed(given, probed);
      return systemPrompt === undefined ? profile : { ...profile, systemPrompt };
    };
    const auto =
      options.autoProfile === undefined
        ? undefined
        : autoProfileOf(options.autoProfile, { baseURL, modelId, fetch, headers }, profileAfter);
    const fixed = profileAfter(undefined);
    let applied: { probed: Partial<ModelProfile>; profile: ModelProfile } | undefined;
    return new OpenAICompatibleChatModel({
      provider,
      modelId,
      url: `${baseURL}/chat/completions`,
      apiKey: options.apiKey,
      headers,
      fetch,
      // With autoProfile the profile follows the probe once it has answered.
      get profile() {
        const probed = auto?.probed();
        if (probed === undefined) return fixed;
        if (applied?.probed !== probed) applied = { probed, profile: profileAfter(probed) };
        return applied.profile;
      },
      ...(auto === undefined ? {} : { profileModel: auto.profile }),
      settings: resolveSettings(baseURL, options, settings),
      memory: memoryOf(modelId),
      limits: options.limits,
    });
  };
  return Object.assign(chatModel, { chatModel, provider, baseURL });
}
