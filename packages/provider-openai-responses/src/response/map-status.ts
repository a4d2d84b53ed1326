import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { asRecord, asString } from '@tiny/provider-utils';

/** How a response ended, read from its `status` and `incomplete_details`. @internal */
export interface TurnEnd {
  readonly finishReason: LanguageModelV1FinishReason;
  /** The raw status, with the incomplete reason after a colon (`incomplete:max_output_tokens`). */
  readonly rawFinishReason: string | undefined;
  /** Why no call of the turn may run; `undefined` for a completed response. */
  readonly broken: string | undefined;
}

/**
 * Maps a response's `status`: `completed` is `tool_calls` with function calls, `content_filter`
 * with a refusal, else `stop`. `incomplete` is a broken turn: `length` for
 * `max_output_tokens`, `content_filter` for `content_filter`, `error` for any other reason. Any
 * other status (`failed`, `cancelled`, `in_progress`, `queued`, a value not known, none at all)
 * is `error`. Only a completed response lets its calls run.
 * @internal
 */
export function mapStatus(response: unknown, hasCalls: boolean, refused: boolean): TurnEnd {
  const record = asRecord(response);
  const status = asString(record?.status);
  if (status === 'completed') {
    return {
      finishReason: refused ? 'content_filter' : hasCalls ? 'tool_calls' : 'stop',
      rawFinishReason: status,
      broken: undefined,
    };
  }
  if (status === 'incomplete') {
    const reason = asString(asRecord(record?.incomplete_details)?.reason);
    const finishReason =
      reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content_filter' : 'error';
    return {
      finishReason,
      rawFinishReason: reason === undefined ? status : `${status}:${reason}`,
      broken: `the response is incomplete (${reason ?? 'no reason given'}); no call of it may run`,
    };
  }
  const shown = status ?? (record?.status === undefined ? 'none' : JSON.stringify(record.status).slice(0, 40));
  return {
    finishReason: 'error',
    rawFinishReason: status,
    broken: `the response ended with status ${shown}, not completed; no call of it may run`,
  };
}
