import type { LanguageModelV1Usage } from '@tiny/llm';
import { asNumber, asRecord } from '@tiny/provider-utils';

/**
 * Maps a Responses API `usage` object: `input_tokens` (cache reads included, as the API counts
 * them), `output_tokens` (reasoning included), `total_tokens` (or their sum),
 * `input_tokens_details.cached_tokens` as `cachedInputTokens` and
 * `output_tokens_details.reasoning_tokens` as `reasoningTokens`. A field never reported stays absent.
 * @internal
 */
export function mapUsage(value: unknown): LanguageModelV1Usage {
  const usage = asRecord(value);
  if (usage === undefined) return {};
  const result: { -readonly [K in keyof LanguageModelV1Usage]: number } = {};
  const input = asNumber(usage.input_tokens);
  const output = asNumber(usage.output_tokens);
  const total = asNumber(usage.total_tokens);
  const cached = asNumber(asRecord(usage.input_tokens_details)?.cached_tokens);
  const reasoning = asNumber(asRecord(usage.output_tokens_details)?.reasoning_tokens);
  if (input !== undefined) result.inputTokens = input;
  if (output !== undefined) result.outputTokens = output;
  if (total !== undefined) result.totalTokens = total;
  else if (input !== undefined && output !== undefined) result.totalTokens = input + output;
  if (cached !== undefined) result.cachedInputTokens = cached;
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}
