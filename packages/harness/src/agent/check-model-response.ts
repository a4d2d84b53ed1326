import { type LanguageModelV1Response, ModelCallError } from '@tiny/llm';

/** The `usage` counters of the provider contract: each a number, or absent. */
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** The first field of `response` whose type breaks the provider contract, described; undefined when none. */
function brokenField(response: LanguageModelV1Response): string | undefined {
  if (typeof response !== 'object' || response === null) return `the response is ${kindOf(response)}`;
  const { content, refusal, finishReason, toolCalls, warnings, usage } = response as unknown as Record<string, unknown>;
  if (typeof content !== 'string') return `\`content\` must be a string, got ${kindOf(content)}`;
  if (refusal !== undefined && typeof refusal !== 'string')
    return `\`refusal\` must be a string when set, got ${kindOf(refusal)}`;
  // An odd primitive (missing, null, a number) is read as a broken turn (`finishReason` is an
  // allow-list), not refused here; an object would be recorded as the provider's live value.
  if ((typeof finishReason === 'object' && finishReason !== null) || typeof finishReason === 'function')
    return `\`finishReason\` must be a string, got ${kindOf(finishReason)}`;
  if (!Array.isArray(toolCalls)) return `\`toolCalls\` must be an array, got ${kindOf(toolCalls)}`;
  if (!Array.isArray(warnings)) return `\`warnings\` must be an array, got ${kindOf(warnings)}`;
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage))
    return `\`usage\` must be an object, got ${kindOf(usage)}`;
  for (const key of USAGE_KEYS) {
    const count = (usage as Record<string, unknown>)[key];
    if (count !== undefined && typeof count !== 'number')
      return `\`usage.${key}\` must be a number when set, got ${kindOf(count)}`;
  }
  return undefined;
}

/**
 * `response` when the fields the run reads and records have the types `LanguageModelV1Response`
 * declares (`content`, `finishReason`, `refusal`, `toolCalls`, `warnings`, the `usage` counters):
 * a response that breaks the contract is never recorded, summed or parsed.
 *
 * @throws {ModelCallError} `kind: 'protocol_violation'` (not retryable), naming the first field that breaks it.
 * @internal
 */
export function checkModelResponse(response: LanguageModelV1Response, provider: string): LanguageModelV1Response {
  const broken = brokenField(response);
  if (broken === undefined) return response;
  throw new ModelCallError({
    message: `the model's response breaks the provider contract: ${broken}`,
    kind: 'protocol_violation',
    provider,
  });
}
