import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { asRecord, asString } from '@tiny/provider-utils';

/**
 * Output item types that ask the client to act (run a command, a patch, a custom tool, a computer
 * action, approve an MCP call) and that this adapter does not turn into calls: a turn holding one
 * did not end in an answer. Hosted items (`web_search_call`, `file_search_call`,
 * `code_interpreter_call`, `mcp_call`, `image_generation_call`) ran at the provider and are not here.
 * @internal
 */
export const CLIENT_ACTION_ITEMS: ReadonlySet<string> = new Set([
  'custom_tool_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'computer_call',
  'mcp_approval_request',
]);

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
 * is `error`. A completed response beside a refusal keeps `content_filter` but no call of it runs;
 * one with an output item cut short (`cut`, see `checkFinalResponse`) is `error`. Only a completed response lets its calls run. A completed response holding an item
 * that asks the client to act (`unanswered`, one of `CLIENT_ACTION_ITEMS`) is `error` too: it did
 * not end in an answer, and nothing of it runs.
 * @internal
 */
export function mapStatus(
  response: unknown,
  hasCalls: boolean,
  refused: boolean,
  unanswered?: string,
  cut?: string,
): TurnEnd {
  const record = asRecord(response);
  const status = asString(record?.status);
  if (status === 'completed' && cut !== undefined) {
    return {
      finishReason: 'error',
      rawFinishReason: `${status}:item_incomplete`,
      broken: `the response completed but ${cut}; no call of it may run`,
    };
  }
  if (status === 'completed' && unanswered !== undefined) {
    return {
      finishReason: 'error',
      rawFinishReason: `${status}:${unanswered}`,
      broken: `the response asks for a ${unanswered}, which this adapter does not run; no call of it may run`,
    };
  }
  if (status === 'completed') {
    return {
      finishReason: refused ? 'content_filter' : hasCalls ? 'tool_calls' : 'stop',
      rawFinishReason: status,
      // A refusal beside calls: the model declined, so none of its calls may run.
      broken: refused && hasCalls ? 'the response holds a refusal; no call of it may run' : undefined,
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
  const shown =
    status ??
    (record?.status === undefined ? 'none' : `a ${Array.isArray(record.status) ? 'array' : typeof record.status}`);
  return {
    finishReason: 'error',
    rawFinishReason: status,
    broken: `the response ended with status ${shown}, not completed; no call of it may run`,
  };
}
