import type { LanguageModelV1FinishReason } from '@tiny/llm';

/**
 * Maps the API's `stop_reason`: `end_turn` and `stop_sequence` to `stop`, `tool_use` to
 * `tool_calls`, `max_tokens` and `model_context_window_exceeded` to `length`, `refusal` to
 * `content_filter`; `pause_turn` (a server tool loop paused, send the turn back to resume), `null`
 * and anything unknown to `other`.
 * @internal
 */
export function mapStopReason(reason: unknown): LanguageModelV1FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}
