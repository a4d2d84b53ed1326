/**
 * Token counts reported for one model call. Every field is optional: providers report different
 * subsets, and a missing field means "not reported", never zero. `reasoningTokens` and
 * `cachedInputTokens` are parts of `outputTokens` and `inputTokens` respectively, not additions.
 */
export interface LanguageModelV1Usage {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly totalTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
  readonly cachedInputTokens?: number | undefined;
}

const usageKeys = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

/**
 * Adds two usage records field by field. A field reported by neither side stays absent; a field
 * reported by one side only is taken as is.
 */
export function addUsage(left: LanguageModelV1Usage, right: LanguageModelV1Usage): LanguageModelV1Usage {
  const sum: { -readonly [K in keyof LanguageModelV1Usage]: number } = {};
  for (const key of usageKeys) {
    const a = left[key];
    const b = right[key];
    if (a === undefined && b === undefined) continue;
    sum[key] = (a ?? 0) + (b ?? 0);
  }
  return sum;
}
