import type { LanguageModelV1Usage } from '@tiny/llm';
import { asNumber, asRecord } from '@tiny/provider-utils';

/**
 * Maps a wire `usage` object: `prompt_tokens`, `completion_tokens`, `total_tokens`,
 * `completion_tokens_details.reasoning_tokens` and `prompt_tokens_details.cached_tokens`. Fields the
 * server did not send stay absent (never zero); a missing or `null` usage gives `{}`.
 * @internal
 */
export function mapUsage(value: unknown): LanguageModelV1Usage {
  const usage = asRecord(value);
  if (usage === undefined) return {};
  const entries: [keyof LanguageModelV1Usage, number | undefined][] = [
    ['inputTokens', asNumber(usage.prompt_tokens)],
    ['outputTokens', asNumber(usage.completion_tokens)],
    ['totalTokens', asNumber(usage.total_tokens)],
    ['reasoningTokens', asNumber(asRecord(usage.completion_tokens_details)?.reasoning_tokens)],
    ['cachedInputTokens', asNumber(asRecord(usage.prompt_tokens_details)?.cached_tokens)],
  ];
  const result: { -readonly [K in keyof LanguageModelV1Usage]: number } = {};
  for (const [key, count] of entries) if (count !== undefined) result[key] = count;
  return result;
}
