import type { LanguageModelV1CallWarning, LanguageModelV1Response, LanguageModelV1ToolCall } from '@tiny/llm';
import { asArray, asNonEmptyString, asRecord, asString, refuseRepeatedIds } from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, transportError } from '../errors/create-call-error.js';
import { callRef, encodeReplayParts, replayPartOf, settleCallRefs, type WirePart } from '../request/replay-parts.js';
import { googleExtraOf } from '../request/to-gemini-contents.js';
import { blockReasonOf, blockRefusal, isFirstCandidate } from './block-reason.js';
import { dropExactRepeats } from './drop-exact-repeats.js';
import { isNormalFinish, mapFinishReason } from './map-finish-reason.js';
import { mapUsage } from './map-usage.js';
import { readFunctionCall } from './read-function-call.js';

/** The parts of a response read from its first candidate. @internal */
export type ParsedResponse = Omit<LanguageModelV1Response, 'warnings' | 'request' | 'response'>;

/** The most parts one candidate may hold; more is a flood, not a turn. @internal */
export const MAX_PARTS = 1024;

/** Why the calls of a turn that did not finish with `STOP` are refused. @internal */
export function refusalOf(raw: string | undefined): string {
  return raw === undefined
    ? 'the turn ended without a finish reason'
    : `the turn finished with ${raw}, not STOP: its calls never run`;
}

/**
 * Reads a `generateContent` body: the first candidate's text parts joined as the content, thought
 * parts as `reasoning`, `functionCall` parts as calls in order (the API's id, else
 * `<name>_<index>`; the part's `thoughtSignature` in `extraContent`; an exact repeat of an earlier
 * call dropped with a warning in `warnings`, see `dropExactRepeats`), and the thought and text
 * parts as the `reasoningSignature` when any carries a signature or is a thought (replayed exactly;
 * see `encodeReplayParts`). A finish other than `STOP` makes every call invalid (it never runs);
 * two calls under one API id make every call invalid and the finish `error`.
 * A `promptFeedback.blockReason` (with or without a candidate) is a `content_filter` finish with
 * that raw reason, every call refused.
 *
 * @throws {GoogleCallError} for an error body (`{error: {...}}`); of kind `invalid_response` for a
 *   body with neither candidates nor a block reason; `protocol_violation` past `MAX_PARTS` parts,
 *   for more than one candidate or a candidate whose `index` is not absent or the number 0, and
 *   for a list body of other than one response.
 * @internal
 */
export function parseResponse(
  body: unknown,
  raw: string,
  context: ErrorContext,
  warnings: LanguageModelV1CallWarning[],
): ParsedResponse {
  const record = asRecord(Array.isArray(body) && body.length === 1 ? body[0] : body);
  if (record?.error !== undefined && record.error !== null)
    throw errorFromEvent(body, raw, context, 'answered with an error body');
  const violation = (what: string) =>
    transportError(`broke the protocol: ${what}`, undefined, { ...context, kind: 'protocol_violation' });
  if (Array.isArray(body) && body.length !== 1) throw violation(`answered with a list of ${body.length} responses`);
  const id = asNonEmptyString(record?.responseId);
  const modelId = asNonEmptyString(record?.modelVersion);
  const meta = { ...(id === undefined ? {} : { id }), ...(modelId === undefined ? {} : { modelId }) };
  const candidates = asArray(record?.candidates);
  if (candidates.length > 1) throw violation(`sent ${candidates.length} candidates; only candidate 0 was asked for`);
  const candidate = asRecord(candidates[0]);
  if (candidates.length === 1 && !isFirstCandidate(candidate))
    throw violation(`sent candidate ${JSON.stringify(candidate?.index ?? null)}; only candidate 0 was asked for`);
  const usage = mapUsage(record?.usageMetadata);
  const blockReason = blockReasonOf(record);
  if (candidate === undefined) {
    if (blockReason === undefined)
      throw transportError('answered with no candidate and no block reason', undefined, {
        ...context,
        kind: 'invalid_response',
      });
    return { ...meta, content: '', toolCalls: [], finishReason: 'content_filter', rawFinishReason: blockReason, usage };
  }
  const parts = asArray(asRecord(candidate.content)?.parts);
  if (parts.length > MAX_PARTS)
    throw transportError(`broke the protocol: sent more than ${MAX_PARTS} parts`, undefined, {
      ...context,
      kind: 'protocol_violation',
    });
  const finish = asString(candidate.finishReason);
  // A blocked prompt refuses every call whatever the candidate says.
  // Streamed arguments (`partialArgs`, `willContinue`, a part naming no call) in a whole body are
  // not assembled here: every call of the response is refused, none runs with what one part holds.
  const streamedForm = parts.some((value) => {
    const call = asRecord(asRecord(value)?.functionCall);
    return (
      call !== undefined &&
      (call.partialArgs !== undefined || call.willContinue !== undefined || asNonEmptyString(call.name) === undefined)
    );
  });
  const refuse =
    blockReason !== undefined
      ? blockRefusal(blockReason)
      : streamedForm
        ? 'the response sent streamed arguments (partialArgs or willContinue), which a whole response is not read for'
        : isNormalFinish(finish)
          ? undefined
          : refusalOf(finish);
  let content = '';
  let reasoning = '';
  const kept: WirePart[] = [];
  const toolCalls: LanguageModelV1ToolCall[] = [];
  parts.forEach((value, index) => {
    const part = asRecord(value);
    if (part === undefined) return;
    if (part.functionCall !== undefined) {
      const name = asNonEmptyString(asRecord(part.functionCall)?.name);
      if (name === undefined) {
        // a continuation of a streamed call: no call of its own (the call it continues is refused)
        const other = replayPartOf({ thoughtSignature: part.thoughtSignature });
        if (other !== undefined) kept.push(other);
        return;
      }
      const read = readFunctionCall(part, `${name}_${index}`, 'response', refuse);
      toolCalls.push(read);
      kept.push(callRef(read.id));
      return;
    }
    const text = asString(part.text);
    if (text === undefined) {
      const other = replayPartOf(part);
      if (other !== undefined) kept.push(other);
      return;
    }
    if (part.thought === true) reasoning += text;
    else content += text;
    const signature = asString(part.thoughtSignature);
    kept.push({
      text,
      ...(part.thought === true ? { thought: true } : {}),
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    });
  });
  const deduped = dropExactRepeats(toolCalls, warnings);
  const signature = encodeReplayParts(
    settleCallRefs(
      kept,
      new Set(deduped.map((call) => call.id)),
      (id) => googleExtraOf(toolCalls.find((call) => call.id === id)?.extraContent).thoughtSignature,
    ),
  );
  const checked = refuseRepeatedIds(deduped);
  return {
    ...meta,
    content,
    ...(signature === undefined
      ? reasoning === ''
        ? {}
        : { reasoning }
      : { reasoning, reasoningSignature: signature }),
    toolCalls: checked,
    // Two calls under one API id: which result answers which is ambiguous, so the turn is broken
    // (the harness refuses a broken turn's calls; each call is also refused, never repaired or run).
    finishReason:
      blockReason !== undefined
        ? 'content_filter'
        : checked !== deduped || streamedForm
          ? 'error'
          : mapFinishReason(finish, toolCalls.length > 0),
    ...((blockReason ?? finish) === undefined ? {} : { rawFinishReason: blockReason ?? finish }),
    usage,
  };
}
