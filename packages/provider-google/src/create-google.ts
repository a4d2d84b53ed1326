import { checkOptionKeys, createModelProfile, InvalidInputError, optionKeys } from '@tiny/llm';
import { checkHttpLimits, type HttpLimits, parseBaseURL } from '@tiny/provider-utils';
import { type AuthHeaders, GoogleGenerativeModel } from './model/google-generative-model.js';
import type { GoogleSettings } from './model/google-settings.js';

/** Options of {@link createGoogle}: the Gemini API (Google AI Studio keys). */
export interface GoogleOptions extends GoogleSettings {
  /** The API key, sent as `x-goog-api-key`; never put in errors, warnings or raw bodies. Absent: no key is sent. */
  readonly apiKey?: string | undefined;
  /**
   * The API root, up to and including the version. Default
   * `https://generativelanguage.googleapis.com/v1beta`; `/models/<id>:generateContent` is appended.
   */
  readonly baseURL?: string | undefined;
  /** Extra headers on every request; a request's own `headers` win. Their values are kept out of errors. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The provider id models report, and the key of their `providerOptions` (beside `google`). Default `google`. */
  readonly name?: string | undefined;
  /**
   * The `fetch` to use. Default `globalThis.fetch`, called with `redirect: 'manual'`: a redirect to
   * another origin fails the call with kind `redirect` before the key or the prompt reaches it.
   */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Bounds on what the server sends back (see `HttpLimits`). */
  readonly limits?: HttpLimits | undefined;
}

/** Options of {@link createVertex}: Gemini on Vertex AI, with a bearer token the caller supplies. */
export interface VertexOptions extends Omit<GoogleOptions, 'apiKey'> {
  /** The Google Cloud project id. */
  readonly project: string;
  /** The region (`us-central1`, `europe-west4`) or `global`. */
  readonly location: string;
  /**
   * The OAuth access token, sent as `Authorization: Bearer <token>`: a string, or a function asked
   * before every request (return a cached token and refresh it yourself, with `google-auth-library`
   * or `gcloud auth print-access-token`). Absent: no token is sent (put one in `headers`, or a
   * proxy adds it). Never put in errors.
   */
  readonly accessToken?: string | (() => string | Promise<string>) | undefined;
  /**
   * The API root, up to and including the version. Default `https://<location>-aiplatform.googleapis.com/v1`
   * (`https://aiplatform.googleapis.com/v1` for `global`);
   * `/projects/<project>/locations/<location>/publishers/google/models/<id>:generateContent` is appended.
   */
  readonly baseURL?: string | undefined;
}

/** Makes Gemini models on one endpoint: call it with a model id. */
export interface GoogleProvider {
  /** A model; `settings` override the provider's for this model only. */
  (modelId: string, settings?: GoogleSettings): GoogleGenerativeModel;
  /** The provider id its models report. */
  readonly provider: string;
  /** The API root, without a trailing slash. */
  readonly baseURL: string;
}

/** Names the AI SDK's `createGoogleGenerativeAI` and `@google/genai` use, mapped to ours. */
const SETTING_MISTAKES: Readonly<Record<string, string>> = {
  structuredOutputs: "schemaMode ('json-schema' or 'openapi')",
  thinkingConfig: 'providerOptions: { thinkingConfig }',
  safetySettings: 'providerOptions: { safetySettings }',
  maxOutputTokens: 'maxTokens in the request',
  temperature: 'modelSettings.temperature in the options of invoke/stream',
};

const SETTING_KEYS = optionKeys<GoogleSettings>()(['profile', 'schemaMode', 'providerOptions'], SETTING_MISTAKES);

const COMMON = ['profile', 'schemaMode', 'providerOptions', 'baseURL', 'headers', 'name', 'fetch', 'limits'] as const;
const COMMON_MISTAKES = {
  ...SETTING_MISTAKES,
  baseUrl: 'baseURL',
  base_url: 'baseURL',
  url: 'baseURL',
  endpoint: 'baseURL',
  defaultHeaders: 'headers',
  provider: 'name',
  maxRetries: 'limits.maxRetriesPerCall of the AgentHarness',
  timeout: 'limits: { idleTimeoutMs, totalTimeoutMs }',
};

const GOOGLE_KEYS = optionKeys<GoogleOptions>()([...COMMON, 'apiKey'], {
  ...COMMON_MISTAKES,
  api_key: 'apiKey',
  key: 'apiKey',
  vertexai: 'createVertex({ project, location, accessToken })',
  project: 'createVertex({ project, location, accessToken })',
});

const VERTEX_KEYS = optionKeys<VertexOptions>()([...COMMON, 'project', 'location', 'accessToken'], {
  ...COMMON_MISTAKES,
  apiKey: 'accessToken (Vertex AI takes an OAuth bearer token)',
  projectId: 'project',
  region: 'location',
  googleAuthOptions: 'accessToken: a function returning a token (google-auth-library getAccessToken)',
  token: 'accessToken',
});

function checkSchemaMode(entryPoint: string, mode: unknown): void {
  if (mode !== undefined && mode !== 'json-schema' && mode !== 'openapi')
    throw new InvalidInputError({
      entryPoint,
      reason: `schemaMode must be 'json-schema' or 'openapi', not ${JSON.stringify(mode)}`,
    });
}

function makeProvider(
  entryPoint: string,
  options: GoogleOptions | VertexOptions,
  root: string,
  modelPath: (modelId: string) => string,
  auth: AuthHeaders,
  secrets: readonly string[],
  defaultName: string,
  example: string,
): GoogleProvider {
  const parsed = parseBaseURL(root, entryPoint, { example, path: '/models/<id>:generateContent' });
  const wrongLimit = checkHttpLimits(options.limits);
  if (wrongLimit !== undefined) throw new InvalidInputError({ entryPoint, reason: wrongLimit });
  checkSchemaMode(entryPoint, options.schemaMode);
  const baseURL = parsed.href.replace(/\/+$/, '');
  const provider = options.name ?? defaultName;
  const model = (modelId: string, settings?: GoogleSettings): GoogleGenerativeModel => {
    const where = `${provider}(${JSON.stringify(modelId)})`;
    checkOptionKeys(where, settings, SETTING_KEYS, { prefix: 'settings.' });
    checkSchemaMode(where, settings?.schemaMode);
    if (typeof modelId !== 'string' || modelId === '' || /[/?#:]/.test(modelId.replace(/^models\//, '')))
      throw new InvalidInputError({ entryPoint: where, reason: 'the model id must be a bare Gemini model name' });
    return new GoogleGenerativeModel({
      provider,
      modelId,
      modelURL: `${baseURL}${modelPath(modelId.replace(/^models\//, ''))}`,
      auth,
      secrets,
      headers: options.headers ?? {},
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      // Gemini calls tools natively only: no family grammar reads calls from its text.
      profile: createModelProfile({
        structuredOutput: 'json_schema',
        toolCallFormats: [],
        ...options.profile,
        ...settings?.profile,
        // Every system message goes into `systemInstruction` (contents take only `user` and
        // `model` roles): a wire fact, not a capability a profile may override.
        systemMessages: 'hoisted',
      }),
      schemaMode: settings?.schemaMode ?? options.schemaMode ?? 'json-schema',
      providerOptions: { ...options.providerOptions, ...settings?.providerOptions },
      limits: options.limits,
    });
  };
  return Object.assign(model, { provider, baseURL });
}

/**
 * Creates a provider for the Gemini API (`POST {baseURL}/models/<id>:generateContent`, and
 * `:streamGenerateContent?alt=sse` for streams) over `fetch`, with no vendor SDK. The profile
 * defaults to native tool calling with parallel calls and JSON-schema output (`responseJsonSchema`).
 *
 * @throws {InvalidInputError} for a `baseURL` that is not an absolute http(s) URL, a `limits`
 *   bound that is not a positive number, a `schemaMode` it does not know, or an option key it
 *   does not take (named, with the one it probably meant), also in the per-model settings.
 */
export function createGoogle(options: GoogleOptions = {}): GoogleProvider {
  const entryPoint = options?.name === undefined ? 'createGoogle' : `${options.name}()`;
  checkOptionKeys(entryPoint, options, GOOGLE_KEYS);
  const key: Readonly<Record<string, string>> =
    options.apiKey === undefined || options.apiKey === '' ? {} : { 'x-goog-api-key': options.apiKey };
  return makeProvider(
    entryPoint,
    options,
    options.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta',
    (modelId) => `/models/${encodeURIComponent(modelId)}`,
    async () => key,
    options.apiKey === undefined || options.apiKey === '' ? [] : [options.apiKey],
    'google',
    'https://generativelanguage.googleapis.com/v1beta',
  );
}

/**
 * Creates a provider for Gemini on Vertex AI
 * (`POST {baseURL}/projects/<project>/locations/<location>/publishers/google/models/<id>:generateContent`),
 * with the caller's bearer token (no Google auth library at runtime). Models report the provider
 * `google-vertex` and read `providerOptions.google` and `providerOptions['google-vertex']`.
 *
 * @throws {InvalidInputError} as {@link createGoogle}, and for a missing or malformed `project` or `location`.
 */
export function createVertex(options: VertexOptions): GoogleProvider {
  const entryPoint = options?.name === undefined ? 'createVertex' : `${options.name}()`;
  checkOptionKeys(entryPoint, options, VERTEX_KEYS);
  for (const field of ['project', 'location'] as const) {
    const value: unknown = options[field];
    if (typeof value !== 'string' || !/^[a-z0-9][a-z0-9.-]*$/i.test(value))
      throw new InvalidInputError({
        entryPoint,
        reason: `${field} must be a Google Cloud ${field} id, not ${JSON.stringify(value)}`,
      });
  }
  const { project, location, accessToken } = options;
  const host = location === 'global' ? 'aiplatform.googleapis.com' : `${location}-aiplatform.googleapis.com`;
  const auth: AuthHeaders = async (): Promise<Readonly<Record<string, string>>> => {
    if (accessToken === undefined) return {};
    let token: string;
    try {
      token = typeof accessToken === 'string' ? accessToken : await accessToken();
    } catch (cause) {
      throw new InvalidInputError({ entryPoint, reason: 'the accessToken function failed', cause });
    }
    if (typeof token !== 'string' || token === '')
      throw new InvalidInputError({ entryPoint, reason: 'the accessToken function returned no token' });
    return { authorization: `Bearer ${token}` };
  };
  return makeProvider(
    entryPoint,
    options,
    options.baseURL ?? `https://${host}/v1`,
    (modelId) =>
      `/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/google/models/${encodeURIComponent(modelId)}`,
    auth,
    typeof accessToken === 'string' ? [accessToken] : [],
    'google-vertex',
    'https://us-central1-aiplatform.googleapis.com/v1',
  );
}
