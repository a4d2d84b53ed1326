import type { ModelProfile } from '@tiny/llm';
import { probeLocalServer } from './probe-local-server.js';

/**
 * The profiler for the `autoProfile` option of the `@tiny/provider-openai` presets:
 * `llamacpp({ autoProfile })`, `ollama({ autoProfile })`, `lmstudio({ autoProfile })`,
 * `vllm({ autoProfile })`. It runs {@link probeLocalServer} for the model with the provider's
 * `fetch` and headers and hands back what it decided (`toolCalling`, `systemPrompt`,
 * `toolCallFormats`) and why. Structurally the `AutoProfiler` type of `@tiny/provider-openai`
 * (this package does not import the adapter).
 *
 * @throws what `probeLocalServer` throws; the adapter turns a failed probe into a report that
 *   keeps the preset's profile, and rethrows only an abort.
 */
export async function autoProfile(target: {
  readonly baseURL: string;
  readonly modelId: string;
  readonly fetch?: typeof globalThis.fetch | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly signal?: AbortSignal | undefined;
}): Promise<{
  readonly server: string;
  readonly contextLength?: number | undefined;
  readonly profile: Partial<ModelProfile>;
  readonly notes: readonly string[];
}> {
  const probe = await probeLocalServer(target.baseURL, {
    model: target.modelId,
    fetch: target.fetch,
    headers: target.headers,
    signal: target.signal,
  });
  return {
    server: probe.server,
    ...(probe.contextLength === undefined ? {} : { contextLength: probe.contextLength }),
    profile: probe.profile,
    notes: probe.notes,
  };
}
