import type { LanguageModelV1Usage } from '@tiny/llm';

/**
 * The share of input tokens a provider read from its prompt cache: `cachedInputTokens /
 * inputTokens`, from 0 to 1. Undefined when the provider reported no cached tokens or no input.
 */
export function cacheHitRatio(usage: LanguageModelV1Usage): number | undefined {
  const { cachedInputTokens: cached, inputTokens: input } = usage;
  if (cached === undefined || input === undefined || input <= 0) return undefined;
  return Math.min(1, Math.max(0, cached / input));
}
