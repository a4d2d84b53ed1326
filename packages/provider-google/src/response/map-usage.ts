import type { LanguageModelV1Usage } from '@tiny/llm';
import { asNumber, asRecord } from '@tiny/provider-utils';

/**
 * Maps `usageMetadata`: `inputTokens` is `promptTokenCount` plus `toolUsePromptTokenCount` (the
 * prompt of server-side tool use, counted apart), `cachedInputTokens` `cachedContentTokenCount`
 * (part of the prompt), `outputTokens` `candidatesTokenCount` plus `thoughtsTokenCount` (thinking
 * is billed as output), `reasoningTokens` `thoughtsTokenCount`, `totalTokens` `totalTokenCount`
 * (else the sum). A field never reported stays absent.
 * @internal
 */
export function mapUsage(value: unknown): LanguageModelV1Usage {
  const usage = asRecord(value);
  if (usage === undefined) return {};
  const prompt = asNumber(usage.promptTokenCount);
  const toolPrompt = asNumber(usage.toolUsePromptTokenCount);
  const candidates = asNumber(usage.candidatesTokenCount);
  const thoughts = asNumber(usage.thoughtsTokenCount);
  const cached = asNumber(usage.cachedContentTokenCount);
  const total = asNumber(usage.totalTokenCount);
  const result: { -readonly [K in keyof LanguageModelV1Usage]: number } = {};
  if (prompt !== undefined || toolPrompt !== undefined) result.inputTokens = (prompt ?? 0) + (toolPrompt ?? 0);
  if (candidates !== undefined || thoughts !== undefined) result.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (total !== undefined) result.totalTokens = total;
  else if (result.inputTokens !== undefined && result.outputTokens !== undefined)
    result.totalTokens = result.inputTokens + result.outputTokens;
  if (thoughts !== undefined) result.reasoningTokens = thoughts;
  if (cached !== undefined) result.cachedInputTokens = cached;
  return result;
}
