import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { normalizeFinishReason } from '@tiny/provider-utils';

/**
 * Maps the API's `stop_reason` with `normalizeFinishReason`, whatever its case: `end_turn` and
 * `stop_sequence` to `stop`, `tool_use` to `tool_calls`, `max_tokens` and
 * `model_context_window_exceeded` to `length`, `refusal` to `content_filter`, `pause_turn` (a
 * server tool loop paused, send the turn back to resume) to `other`, `null` or absent to `other`.
 * A value it does not know is `error`, never a normal end, so a harness refuses the calls of that
 * turn.
 * @internal
 */
export function mapStopReason(reason: unknown): LanguageModelV1FinishReason {
  if (reason === null || reason === undefined || reason === '') return 'other';
  return normalizeFinishReason(typeof reason === 'string' ? reason : (JSON.stringify(reason) ?? String(reason)));
}
