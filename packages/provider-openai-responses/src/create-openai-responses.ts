import { checkOptionKeys, createModelProfile, InvalidInputError, type ModelProfile, optionKeys } from '@tiny/llm';
import { checkHttpLimits, type HttpLimits, parseBaseURL } from '@tiny/provider-utils';
import { OpenAIResponsesModel } from './model/openai-responses-model.js';
import type { OpenAIResponsesSettings } from './model/openai-responses-settings.js';

/** Options of {@link createOpenAIResponses}. */
export interface OpenAIResponsesOptions extends OpenAIResponsesSettings {
  /**
   * The API root (`https://api.openai.com/v1`, `https://my-resource.openai.azure.com/openai/v1`,
   * `http://127.0.0.1:8000/v1`); `/responses` is appended.
   */
  readonly baseURL: string;
  /** The API key; never put in errors, warnings or raw bodies. Absent: no key is sent (local servers). */
  readonly apiKey?: string | undefined;
  /** How the key is sent: `authorization` (`Bearer <key>`, the default) or `api-key` (Azure OpenAI). */
  readonly authHeader?: 'authorization' | 'api-key' | undefined;
  /** An `api-version` query parameter on every request (Azure's dated API); absent for the v1 API. */
  readonly apiVersion?: string | undefined;
  /** Extra headers on every request (`OpenAI-Organization`, `OpenAI-Project`); a request's own win. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The provider id models report and the key of their own `providerOptions`. Default `openai`. */
  readonly name?: string | undefined;
  /**
   * The `fetch` to use. Default `globalThis.fetch`. Called with `redirect: 'manual'`: a same-origin
   * `307`/`308` is followed, any other redirect fails the call with kind `redirect`.
   */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Bounds on what the server sends back (see `HttpLimits`); `Infinity` turns one off. */
  readonly limits?: HttpLimits | undefined;
  /** Capabilities per model id, under `profile` and the model's own settings. @internal */
  readonly profileOf?: ((modelId: string) => Partial<ModelProfile>) | undefined;
}

/** Names the AI SDK and the OpenAI SDK use, mapped to ours. */
const SETTING_MISTAKES: Readonly<Record<string, string>> = {
  maxTokens: 'maxTokens in the request (max_output_tokens)',
  max_output_tokens: 'maxTokens in the request',
  reasoningEffort: 'providerOptions: { reasoningEffort }',
  store: 'providerOptions: { store }',
  previousResponseId: 'providerOptions: { previousResponseId }',
  temperature: 'modelSettings.temperature in the options of invoke/stream',
};

const SETTING_KEYS = optionKeys<OpenAIResponsesSettings>()(['profile', 'providerOptions'], SETTING_MISTAKES);

const OPTION_KEYS = optionKeys<OpenAIResponsesOptions>()(
  [
    'profile',
    'providerOptions',
    'baseURL',
    'apiKey',
    'authHeader',
    'apiVersion',
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
    organization: "headers: { 'OpenAI-Organization': … }",
    project: "headers: { 'OpenAI-Project': … }",
    defaultHeaders: 'headers',
    provider: 'name',
    maxRetries: 'limits.maxRetriesPerCall of the AgentHarness',
    timeout: 'limits: { idleTimeoutMs, totalTimeoutMs }, or limits.wallClockMs of the AgentHarness',
  },
);

/** The fields of `value` whose value is not `undefined` (so spreading it overrides only what it sets). */
function definedFields<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** Refuses a key `createOpenAIResponses` (or a preset) does not take, naming what it probably meant. @internal */
export function checkResponsesOptions(entryPoint: string, options: unknown): void {
  checkOptionKeys(entryPoint, options, OPTION_KEYS);
}

/** Makes models on one Responses API endpoint: call it with a model id (an Azure deployment name). */
export interface OpenAIResponsesProvider {
  /** A model; `settings` override the provider's for this model only. */
  (modelId: string, settings?: OpenAIResponsesSettings): OpenAIResponsesModel;
  /** The same as calling the provider. */
  responses(modelId: string, settings?: OpenAIResponsesSettings): OpenAIResponsesModel;
  /** The provider id its models report. */
  readonly provider: string;
  /** The API root, without a trailing slash. */
  readonly baseURL: string;
}

/**
 * Creates a provider for the OpenAI Responses API (`POST {baseURL}/responses`) over `fetch`, with
 * no vendor SDK. The profile defaults to native tool calling with parallel calls and native
 * JSON-schema output (`text.format`), so structured output takes the provider strategy.
 *
 * @throws {InvalidInputError} when `baseURL` is not an absolute http(s) URL (or carries a query or
 * credentials), a `limits` bound is not a positive number, or for an option key it does not take
 * (named, with the one it probably meant), also in the per-model settings.
 */
export function createOpenAIResponses(options: OpenAIResponsesOptions): OpenAIResponsesProvider {
  const entryPoint = options?.name === undefined ? 'createOpenAIResponses' : `${options.name}()`;
  checkResponsesOptions(entryPoint, options);
  const parsed = parseBaseURL(options.baseURL, entryPoint, {
    example: 'https://api.openai.com/v1',
    path: '/responses',
  });
  const wrongLimit = checkHttpLimits(options.limits);
  if (wrongLimit !== undefined) throw new InvalidInputError({ entryPoint, reason: wrongLimit });
  const baseURL = parsed.href.replace(/\/+$/, '');
  const provider = options.name ?? 'openai';
  const query = options.apiVersion === undefined ? '' : `?api-version=${encodeURIComponent(options.apiVersion)}`;
  const responses = (modelId: string, settings?: OpenAIResponsesSettings): OpenAIResponsesModel => {
    checkOptionKeys(`${provider}(${JSON.stringify(modelId)})`, settings, SETTING_KEYS, { prefix: 'settings.' });
    return new OpenAIResponsesModel({
      provider,
      modelId,
      url: `${baseURL}/responses${query}`,
      apiKey: options.apiKey,
      authHeader: options.authHeader ?? 'authorization',
      headers: options.headers ?? {},
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      // An explicit `undefined` field is absent: it never undoes a preset's default.
      profile: createModelProfile({
        structuredOutput: 'json_schema',
        ...definedFields(options.profileOf?.(modelId)),
        ...definedFields(options.profile),
        ...definedFields(settings?.profile),
      }),
      providerOptions: { ...options.providerOptions, ...settings?.providerOptions },
      limits: options.limits,
    });
  };
  return Object.assign(responses, { responses, provider, baseURL });
}
