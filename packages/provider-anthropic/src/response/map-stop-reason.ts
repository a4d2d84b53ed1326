import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { normalizeFinishReason } from '@tiny/provider-utils';

/**
 * Maps the API's `stop_reason` with `normalizeFinishReason`, whatever its case: `end_turn` and
 * `stop_sequence` to `stop`, `tool_use` to `tool_calls`, `max_tokens` and
 * `model_context_window_exceeded` to `length`, `refusal` to `content_filter`, `pause_turn` (a
 * server tool loop paused, send the turn back to resume) to `other`. A value it does not know, or
 * one that is not a string (`5`, `{}`, `true`), is `error`, never a normal end. `null`, absent or
 * blank is `other` without tool calls. With tool calls (`hasToolCalls`), only a normal end
 * (`tool_use`, `end_turn`, `stop_sequence`) lets them run: a missing reason or `pause_turn` is
 * `error`, so a harness refuses the calls of that turn.
 * @internal
 */
export function mapStopReason(reason: unknown, hasToolCalls = false): LanguageModelV1FinishReason {
  if (reason === null || reason === undefined || (typeof reason === 'string' && reason.trim() === ''))
    return hasToolCalls ? 'error' : 'other';
  if (typeof reason !== 'string') return 'error';
  const mapped = normalizeFinishReason(reason);
  return hasToolCalls && mapped === 'other' ? 'error' : mapped;
}

/** The raw `stop_reason` to report: a string as is, another value as a marker naming its type. @internal */
export function rawStopReason(reason: unknown): string | undefined {
  if (reason === null || reason === undefined || reason === '') return undefined;
  if (typeof reason === 'string') return reason;
  if (Array.isArray(reason)) return '[array]';
  return typeof reason === 'object' ? '[object]' : String(reason);
}
