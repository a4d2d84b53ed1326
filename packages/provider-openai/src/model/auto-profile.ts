import { createModelProfile, type ModelProfile, type SystemPromptPlacement } from '@tiny/llm';
import { redactSecret, requestSecrets } from '@tiny/provider-utils';

/** What an {@link AutoProfiler} is asked about: one model on one server. */
export interface AutoProfileTarget {
  /** The provider's `baseURL` (`http://127.0.0.1:8080/v1`). */
  readonly baseURL: string;
  readonly modelId: string;
  /** The provider's `fetch` and headers, so a probe goes through the same proxy and auth. */
  readonly fetch: typeof globalThis.fetch;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

/** What an {@link AutoProfiler} decided. */
export interface AutoProfileResult {
  /** The runtime recognised (`llamacpp`, `ollama`, `lmstudio`, `vllm`, `openai-compatible`). */
  readonly server: string;
  /** The context length the server runs the model with, when it says. */
  readonly contextLength?: number | undefined;
  /** The profile fields decided; a field left out keeps the preset's value. */
  readonly profile: Partial<ModelProfile>;
  /** Why, one sentence each. */
  readonly notes: readonly string[];
}

/**
 * Reads a server and a model and decides profile fields. `autoProfile` of `@tiny/local` is one
 * (it reads llama.cpp `/props`, Ollama `/api/show`, LM Studio `/api/v0/models`, vLLM `/v1/models`
 * and the chat template); this package does not depend on it, so pass it:
 * `llamacpp({ autoProfile })`.
 */
export type AutoProfiler = (target: AutoProfileTarget) => Promise<AutoProfileResult>;

/** What was decided for a model, once: the harness reports it as its `model_profiled` event. */
export interface ModelProfiledReport {
  readonly modelId: string;
  readonly server: string;
  readonly contextLength?: number | undefined;
  /** Native tool calling (else prompt-guided) after the probe. */
  readonly toolCalling: boolean;
  readonly systemPrompt: SystemPromptPlacement;
  /** The call grammars the model writes, when the probe restricted them. */
  readonly toolCallFormats?: readonly string[] | undefined;
  /** Why each choice was made (the profiler's notes). */
  readonly reasons: readonly string[];
}

interface CacheEntry {
  promise: Promise<AutoProfileResult> | undefined;
  result: AutoProfileResult | undefined;
  reported: boolean;
}

/** Probes are cached per profiler, base URL and model id, for the life of the process. */
const caches = new WeakMap<AutoProfiler, Map<string, CacheEntry>>();

/** The fields a probe decided, laid over a profile (a prompt-guided decision clears native formats). @internal */
export function applyProbed(base: ModelProfile, probed: Partial<ModelProfile> | undefined): ModelProfile {
  if (probed === undefined) return base;
  const promptGuided = probed.toolCalling === false;
  return createModelProfile({
    ...base,
    ...(promptGuided
      ? {
          parallelToolCalls: false,
          toolFormats: [],
          defaultStructuredMode: base.defaultStructuredMode === 'tool' ? 'provider' : base.defaultStructuredMode,
        }
      : {}),
    ...probed,
  });
}

/**
 * The probe of one model, shared by every provider that uses the same profiler, base URL and
 * model id: `probed()` is the result once known, `profile(signal)` runs the probe once (later
 * callers wait for the same one) and returns the report to the first caller only. @internal
 */
export function autoProfileOf(
  profiler: AutoProfiler,
  target: Omit<AutoProfileTarget, 'signal'>,
  profileAfter: (probed: Partial<ModelProfile>) => ModelProfile,
): {
  probed(): Partial<ModelProfile> | undefined;
  profile(signal?: AbortSignal): Promise<ModelProfiledReport | undefined>;
} {
  let cache = caches.get(profiler);
  if (cache === undefined) {
    cache = new Map();
    caches.set(profiler, cache);
  }
  const key = `${target.baseURL}\n${target.modelId}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = { promise: undefined, result: undefined, reported: false };
    cache.set(key, entry);
  }
  const shared = entry;
  return {
    probed: () => shared.result?.profile,
    async profile(signal) {
      if (shared.result === undefined) {
        shared.promise ??= profiler({ ...target, signal }).catch((error: unknown) => {
          if (signal?.aborted === true && error === signal.reason) {
            shared.promise = undefined; // an abort is not an answer: the next run probes again
            throw error;
          }
          // The probe sends the provider's headers: a failure quoting one (`Headers.append: "Bearer …"`) is scrubbed.
          const secrets = requestSecrets({ headers: target.headers, baseURL: target.baseURL });
          const message = redactSecret(error instanceof Error ? error.message : String(error), secrets);
          return { server: 'unknown', profile: {}, notes: [`probe failed (${message}): the preset's profile stays`] };
        });
        const result = await shared.promise;
        shared.result = result;
      }
      if (shared.reported) return undefined;
      shared.reported = true;
      const result = shared.result as AutoProfileResult;
      const profile = profileAfter(result.profile);
      return {
        modelId: target.modelId,
        server: result.server,
        ...(result.contextLength === undefined ? {} : { contextLength: result.contextLength }),
        toolCalling: profile.toolCalling,
        systemPrompt: profile.systemPrompt ?? 'system',
        ...(profile.toolCallFormats === undefined ? {} : { toolCallFormats: profile.toolCallFormats }),
        reasons: result.notes,
      };
    },
  };
}
