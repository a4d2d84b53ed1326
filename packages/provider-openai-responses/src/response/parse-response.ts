import type { LanguageModelV1Response, LanguageModelV1ToolCall } from '@tiny/llm';
import {
  asArray,
  asNonEmptyString,
  asRecord,
  asString,
  MAX_WIRE_DEPTH,
  redactDeep,
  redactSecret,
  refuseRepeatedIds,
} from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, transportError } from '../errors/create-call-error.js';
import { encodeReplayItems, type ReplayItem, type ReplaySlot, replayTooDeep } from '../request/replay-items.js';
import { checkFinalResponse, messageTexts, tooDeepForWire } from './check-final-response.js';
import { CLIENT_ACTION_ITEMS, mapStatus } from './map-status.js';
import { mapUsage } from './map-usage.js';
import { readCall } from './read-call.js';

/** The parts of a response read from its output items. @internal */
export type ParsedResponse = Omit<LanguageModelV1Response, 'warnings' | 'request' | 'response'>;

/** The most output items one response may hold; more is a flood, not a turn. @internal */
export const MAX_OUTPUT_ITEMS = 512;

/** Joins reasoning summaries (a stream emits the same separator). @internal */
export const SUMMARY_SEPARATOR = '\n\n';

/** The summary texts of a reasoning item, then its raw `reasoning_text` content (gpt-oss servers). @internal */
export function reasoningTexts(item: Readonly<Record<string, unknown>>): string[] {
  const summaries = asArray(item.summary).map((part) => asString(asRecord(part)?.text) ?? '');
  const content = asArray(item.content).map((part) => asString(asRecord(part)?.text) ?? '');
  return [...summaries, ...content].filter((text) => text !== '');
}

/**
 * Reads a whole Responses API body. `output_text` parts of `message` items are the content
 * (their annotations stay in the raw body), kept byte for byte beside a refusal; `refusal` parts the refusal; `function_call` items
 * calls by `call_id`; reasoning items (summaries and `reasoning_text` as `reasoning`), hosted tool
 * items (`web_search_call`, `file_search_call`, `code_interpreter_call`, ...) and items of types the
 * adapter does not know are kept unchanged, in order, as the replay envelope in
 * `reasoningSignature` (see `encodeReplayItems`, with the order of every output item): they are never calls the harness runs. The
 * `status` decides the finish (see `mapStatus`); a response that is not `completed` makes every call
 * invalid, and two calls under one `call_id` make every call refused (never repaired or run).
 *
 * @throws {OpenAIResponsesCallError} for an error body (`{error: {...}}`) or a response with status
 *   `failed` (kind from its `error`); of kind `invalid_response` for a body without an `output`
 *   array; of kind `protocol_violation` for more than `MAX_OUTPUT_ITEMS` (512) items; of kind `invalid_chunk`
 *   (`invalid_response`) for a kept item nesting deeper than `MAX_WIRE_DEPTH` (it could not be replayed)
 *   or a body nesting past `MAX_EVENT_DEPTH`; of kind `protocol_violation` for what
 *   `checkFinalResponse` refuses (the same check a stream's terminal event gets). An output item cut
 *   short (`status: incomplete`) or a refusal beside calls leaves no call runnable.
 * @internal
 */
export function parseResponse(
  body: unknown,
  raw: string,
  context: ErrorContext & { headers?: Headers },
): ParsedResponse {
  if (tooDeepForWire(body))
    throw transportError('answered with a body nested too deep to be a response', undefined, {
      ...context,
      kind: 'invalid_response',
    });
  const response = asRecord(body);
  if (asString(response?.status) === 'failed' && asRecord(response?.error) !== undefined)
    throw errorFromEvent(response?.error, raw, context, 'answered with a failed response');
  if ((response?.error !== undefined && response.error !== null) || asString(response?.type) === 'error')
    throw errorFromEvent(body, raw, context, 'answered with an error body');
  if (typeof response?.type === 'string' || asRecord(response?.response) !== undefined)
    throw transportError('answered with a stream event, not a response', undefined, {
      ...context,
      kind: 'protocol_violation',
    });
  if (!Array.isArray(response?.output))
    throw transportError('answered with no response (the body has no output array)', undefined, {
      ...context,
      kind: 'invalid_response',
    });
  const items = asArray(response?.output);
  if (items.length > MAX_OUTPUT_ITEMS)
    throw transportError(`broke the protocol: sent more than ${MAX_OUTPUT_ITEMS} output items`, undefined, {
      ...context,
      kind: 'protocol_violation',
    });
  // The same check a stream's terminal event gets (see `checkFinalResponse`).
  const problem = checkFinalResponse(response ?? {}, response?.status);
  if (problem.violation !== undefined)
    throw transportError(`broke the protocol: ${problem.violation}`, undefined, {
      ...context,
      kind: 'protocol_violation',
    });
  let content = '';
  let refusal = '';
  const reasoning: string[] = [];
  const replay: ReplayItem[] = [];
  const callItems: Record<string, unknown>[] = [];
  const order: ReplaySlot[] = [];
  for (const value of items) {
    const item = asRecord(value);
    if (item === undefined || typeof item.type !== 'string') continue;
    if (item.type === 'message') {
      const said = messageTexts(item);
      // Each message keeps its own slot (with its text length), so replay keeps it in place.
      order.push(`m:${said.text.length}`);
      content += said.text;
      refusal += said.refusal;
      continue;
    }
    order.push(item.type === 'function_call' ? `c:${asString(item.call_id) ?? ''}` : 'r');
    if (item.type === 'function_call') {
      callItems.push(item);
    } else {
      if (item.type === 'reasoning') reasoning.push(...reasoningTexts(item));
      // What the server echoed (a key in a hosted item) never rides the envelope.
      replay.push(redactDeep(item, context.secret) as ReplayItem);
    }
  }
  const deep = replayTooDeep(replay);
  if (deep !== undefined)
    throw transportError(
      `answered with a ${replay[deep]?.type} item nested deeper than ${MAX_WIRE_DEPTH} levels (it could not be replayed)`,
      undefined,
      { ...context, kind: 'invalid_response' },
    );
  const unanswered = replay.find((item) => CLIENT_ACTION_ITEMS.has(item.type))?.type;
  const end = mapStatus(response, callItems.length > 0, refusal !== '', unanswered, problem.cut);
  const toolCalls: LanguageModelV1ToolCall[] = callItems.map((item) => readCall(item, 'response', end.broken));
  const signature = encodeReplayItems(replay, order);
  const id = redactSecret(asNonEmptyString(response?.id), context.secret);
  const modelId = redactSecret(asNonEmptyString(response?.model), context.secret);
  return {
    ...(id === undefined ? {} : { id }),
    ...(modelId === undefined ? {} : { modelId }),
    content,
    ...(signature === undefined ? {} : { reasoning: reasoning.join(SUMMARY_SEPARATOR), reasoningSignature: signature }),
    ...(refusal === '' ? {} : { refusal }),
    toolCalls: refuseRepeatedIds(toolCalls),
    finishReason: end.finishReason,
    ...(end.rawFinishReason === undefined ? {} : { rawFinishReason: end.rawFinishReason }),
    usage: mapUsage(response?.usage),
  };
}
