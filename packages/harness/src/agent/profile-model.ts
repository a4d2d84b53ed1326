import type { LanguageModelV1 } from '@tiny/llm';
import type { AgentEvent } from '../events/agent-event.js';

/** The `model_profiled` event without its `type`. */
type ModelProfiled = Omit<Extract<AgentEvent, { type: 'model_profiled' }>, 'type'>;

/**
 * Lets a model that reads its own server (`autoProfile` of `@tiny/provider-openai`, which adds
 * `profileModel(signal)`) settle its profile before the run picks a dialect from it. Returns what
 * the model decided the first time it probed, `undefined` otherwise and for models without it.
 * @internal
 */
export async function profileModel(
  model: LanguageModelV1,
  signal: AbortSignal | undefined,
): Promise<ModelProfiled | undefined> {
  const probe = (model as { profileModel?: unknown }).profileModel;
  if (typeof probe !== 'function') return undefined;
  return (
    (await (probe as (signal?: AbortSignal) => Promise<ModelProfiled | undefined>).call(model, signal)) ?? undefined
  );
}
