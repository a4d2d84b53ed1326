import type { LanguageModelV1FinishReason } from '@tiny/llm';

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The refusal an AI SDK result carries, as far as the SDK exposes one (it has no refusal part):
 * - a `stopDetails` of type `refusal` in any provider's metadata (how `@ai-sdk/anthropic` passes
 *   on the Messages API's `stop_details`): its `explanation`, else a sentence naming its
 *   `category`;
 * - a `content-filter` finish whose raw reason is `stop`: the provider stopped normally and the
 *   SDK flagged the answer as a refusal (how `@ai-sdk/openai-compatible` reports OpenAI's
 *   `message.refusal` / `delta.refusal`, which it sends as text): the text is the refusal.
 * `undefined` otherwise, a `content-filter` stop of a provider's own filter (raw
 * `content_filter`, say) included: its text is cut-off output, not the model's words.
 * @internal
 */
export function readRefusal(options: {
  readonly finishReason: LanguageModelV1FinishReason;
  readonly rawFinishReason?: string | undefined;
  readonly providerMetadata: unknown;
  readonly text: string;
}): string | undefined {
  if (options.finishReason !== 'content_filter') return undefined;
  for (const entry of Object.values(asRecord(options.providerMetadata) ?? {})) {
    const details = asRecord(asRecord(entry)?.stopDetails);
    if (details?.type !== 'refusal') continue;
    const category = nonEmpty(details.category);
    return (
      nonEmpty(details.explanation) ??
      `The model declined the request (stop_reason "refusal"${category === undefined ? '' : `, category "${category}"`}) without an explanation.`
    );
  }
  if (options.rawFinishReason === 'stop') return nonEmpty(options.text) ?? 'The model declined the request.';
  return undefined;
}
