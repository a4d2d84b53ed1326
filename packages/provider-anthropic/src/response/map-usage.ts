import type { LanguageModelV1Usage } from '@tiny/llm';
import { asNumber, asRecord } from '@tiny/provider-utils';

/** The API's usage counters, as far as they were reported. @internal */
export interface WireUsage {
  input?: number;
  output?: number;
  cacheCreation?: number;
  cacheRead?: number;
  thinking?: number;
}

/**
 * Reads a `usage` object over what is known so far (`message_start` first, then each cumulative
 * `message_delta`): a field present in the later object wins.
 * @internal
 */
export function readUsage(value: unknown, into: WireUsage = {}): WireUsage {
  const usage = asRecord(value);
  if (usage === undefined) return into;
  const details = asRecord(usage.output_tokens_details);
  const next: WireUsage = { ...into };
  const input = asNumber(usage.input_tokens);
  const output = asNumber(usage.output_tokens);
  const creation = asNumber(usage.cache_creation_input_tokens);
  const read = asNumber(usage.cache_read_input_tokens);
  const thinking = asNumber(details?.thinking_tokens);
  if (input !== undefined) next.input = input;
  if (output !== undefined) next.output = output;
  if (creation !== undefined) next.cacheCreation = creation;
  if (read !== undefined) next.cacheRead = read;
  if (thinking !== undefined) next.thinking = thinking;
  return next;
}

/**
 * Maps the counters: `inputTokens` is every prompt token (`input_tokens` plus cache creation and
 * cache reads, which the API counts apart), `cachedInputTokens` the cache reads, `reasoningTokens`
 * `output_tokens_details.thinking_tokens`; a field never reported stays absent.
 * @internal
 */
export function mapUsage(usage: WireUsage): LanguageModelV1Usage {
  const result: { -readonly [K in keyof LanguageModelV1Usage]: number } = {};
  if (usage.input !== undefined) result.inputTokens = usage.input + (usage.cacheCreation ?? 0) + (usage.cacheRead ?? 0);
  if (usage.output !== undefined) result.outputTokens = usage.output;
  if (result.inputTokens !== undefined && result.outputTokens !== undefined) {
    result.totalTokens = result.inputTokens + result.outputTokens;
  }
  if (usage.cacheRead !== undefined) result.cachedInputTokens = usage.cacheRead;
  if (usage.thinking !== undefined) result.reasoningTokens = usage.thinking;
  return result;
}
