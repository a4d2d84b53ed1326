import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { normalizeFinishReason } from '@tiny/provider-utils';

/**
 * Maps a candidate's `finishReason`: `STOP` is `tool_calls` when the turn holds calls, else
 * `stop`; every other value goes through the shared table (`MAX_TOKENS` → `length`; `SAFETY`,
 * `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY` → `content_filter`;
 * `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`, `LANGUAGE`, `OTHER`,
 * `FINISH_REASON_UNSPECIFIED` and any value nobody knows → `error`). No reason at all is `error`
 * for a turn with calls (they never run) and `other` without.
 * @internal
 */
export function mapFinishReason(raw: string | undefined, hasCalls: boolean): LanguageModelV1FinishReason {
  if (raw === undefined) return hasCalls ? 'error' : 'other';
  if (raw.trim().toUpperCase() === 'STOP') return hasCalls ? 'tool_calls' : 'stop';
  return normalizeFinishReason(raw);
}

/** True for the one finish reason whose calls may run. @internal */
export function isNormalFinish(raw: string | undefined): boolean {
  return raw !== undefined && raw.trim().toUpperCase() === 'STOP';
}
