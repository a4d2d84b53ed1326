import type { LanguageModelV1FinishReason } from '@tiny/llm';

/**
 * Gemini's `FinishReason` values other than `STOP`, each with its shared finish (the Gemini API
 * `Candidate.FinishReason` reference). A closed set: a value outside it is never read through
 * another provider's vocabulary (`TOOL_USE`, `END_TURN`, `EOS` mean nothing here).
 */
const GEMINI_FINISHES: ReadonlyMap<string, LanguageModelV1FinishReason> = new Map([
  ['MAX_TOKENS', 'length'],
  ['SAFETY', 'content_filter'],
  ['RECITATION', 'content_filter'],
  ['BLOCKLIST', 'content_filter'],
  ['PROHIBITED_CONTENT', 'content_filter'],
  ['SPII', 'content_filter'],
  ['IMAGE_SAFETY', 'content_filter'],
  ['IMAGE_PROHIBITED_CONTENT', 'content_filter'],
  ['IMAGE_RECITATION', 'content_filter'],
]);

/**
 * Maps a candidate's `finishReason`, exactly as Gemini spells it: `STOP` is `tool_calls` when the
 * turn holds calls, else `stop`; `MAX_TOKENS` → `length`; `SAFETY`, `RECITATION`, `BLOCKLIST`,
 * `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`, `IMAGE_PROHIBITED_CONTENT`, `IMAGE_RECITATION` →
 * `content_filter`; every other value (`MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`,
 * `TOO_MANY_TOOL_CALLS`, `LANGUAGE`, `OTHER`, `FINISH_REASON_UNSPECIFIED`, another provider's word
 * such as `TOOL_USE` or `END_TURN`, a value in another case such as `stop`, anything nobody knows)
 * → `error`. No reason at all is `error` for a turn with calls (they never run) and `other` without.
 * @internal
 */
export function mapFinishReason(raw: string | undefined, hasCalls: boolean): LanguageModelV1FinishReason {
  if (raw === undefined) return hasCalls ? 'error' : 'other';
  if (raw === 'STOP') return hasCalls ? 'tool_calls' : 'stop';
  return GEMINI_FINISHES.get(raw) ?? 'error';
}

/** True for the one finish reason whose calls may run: exactly `STOP`. @internal */
export function isNormalFinish(raw: string | undefined): boolean {
  return raw === 'STOP';
}
