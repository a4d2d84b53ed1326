import type { LanguageModelV1StreamPart, LanguageModelV1ToolCall } from '@tiny/llm';
import {
  asNonEmptyString,
  asRecord,
  asString,
  HttpFailure,
  type HttpLimits,
  readSseEvents,
  type SseEvent,
} from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, httpFailureError, transportError } from '../errors/create-call-error.js';
import { encodeOpaqueBlocks, type OpaqueBlock } from '../request/opaque-blocks.js';
import { decodeToolInput } from '../response/decode-tool-input.js';
import { isNormalStop, mapStopReason, rawStopReason } from '../response/map-stop-reason.js';
import { mapUsage, readUsage, type WireUsage } from '../response/map-usage.js';
import { THINKING_SEPARATOR } from '../response/parse-message.js';
import { readRefusal } from '../response/read-refusal.js';

/** What the stream reader needs. @internal */
export interface StreamContext extends ErrorContext {
  readonly signal?: AbortSignal | undefined;
  readonly headers?: Headers | undefined;
  /** Size and time bounds on the stream (defaults of `HttpLimits` for those left out). */
  readonly limits?: HttpLimits | undefined;
}

/** The most content blocks one streamed message may open; more is a flood, not a turn. @internal */
export const MAX_CONTENT_BLOCKS = 512;

/** Anthropic's keep-alive: delivered, but no progress for the idle bound. */
const isPing = (event: SseEvent): boolean =>
  event.event === 'ping' || /^\s*\{\s*"type"\s*:\s*"ping"\s*\}\s*$/.test(event.data);

/** A content block being received, by its `index`. */
type OpenBlock =
  | { readonly kind: 'text' }
  | { readonly kind: 'tool'; readonly id: string; readonly name: string; json: string; readonly start: unknown }
  | { readonly kind: 'opaque'; readonly block: Record<string, unknown>; json: string };

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads a Messages API event stream into stream parts. Text and thinking deltas pass through as
 * they arrive; `input_json_delta` pieces are assembled per content block `index` (split anywhere)
 * and also passed through as `tool_call_delta`. Calls end when the stop reason is known, so one cut
 * off by `max_tokens` ends invalid. Signatures, redacted thinking and server-tool blocks are kept
 * opaque and sent once, as the signature of a last `reasoning_delta`. `ping` and unknown events
 * are ignored. A `refusal` stop reason sends one `refusal_delta` (the `stop_details` explanation,
 * see `readRefusal`) when its `message_delta` arrives.
 *
 * The first `stop_reason` holds, unless a later one is no normal end while it was (a turn is never
 * upgraded to a normal end). A missing, non-string or `pause_turn` stop reason makes a turn with
 * tool calls finish `error` (see `mapStopReason`). Content after the stop reason (a block start, a
 * delta with content), a second `message_start` and more than `MAX_CONTENT_BLOCKS` (512) blocks
 * are a `protocol_violation` error: nothing of that message is runnable.
 *
 * Endings: an `error` event ends with an `error` part after whatever arrived (kept). A stream that
 * ends, or whose connection drops, before a `message_delta` carried a `stop_reason` (a
 * `message_stop` without one included) ends with a retryable `incomplete_stream` error after the
 * text streamed so far; open calls end invalid. Once the stop reason arrived, a missing
 * `message_stop` (the body ended, or the connection dropped) is a normal finish with the stop
 * reason and the usage already received, except that a tool block never closed (no
 * `content_block_stop`) ends invalid, unrepaired, and the finish is `error`; so is the finish of a
 * turn with tool calls when an event that is not JSON followed the stop reason. Event types are
 * compared case-insensitively.
 *
 * @throws the signal's reason when the call is aborted (from the iteration).
 * @internal
 */
export async function* streamMessage(
  body: ReadableStream<Uint8Array>,
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  const open = new Map<number, OpenBlock>();
  const calls: { id: string; name: string; input: unknown }[] = [];
  const opaque: OpaqueBlock[] = [];
  let thinkingBlocks = 0;
  let usage: WireUsage = {};
  let stopReason: string | undefined;
  let metadataSent = false;
  let finished = false;
  let lastEvent: unknown;
  let lastStarted: OpenBlock['kind'] | undefined;
  let refused = false;
  let messageStarted = false;
  let corrupted = false;
  let blocksStarted = 0;
  let toolBlocks = 0;
  const violation = (what: string): LanguageModelV1StreamPart => ({
    type: 'error',
    error: transportError(`broke the stream protocol: ${what}`, undefined, {
      ...context,
      kind: 'protocol_violation',
      retryable: false,
    }),
  });

  const finish = function* (truncated: boolean): Generator<LanguageModelV1StreamPart> {
    const last = calls.length - 1;
    for (const [index, call] of calls.entries()) {
      const decoded: LanguageModelV1ToolCall = decodeToolInput(
        call.id,
        call.name,
        call.input,
        'stream',
        truncated && index === last,
      );
      yield { type: 'tool_call_end', id: call.id, call: decoded };
    }
    calls.length = 0;
    const signature = encodeOpaqueBlocks(opaque);
    if (signature !== undefined) yield { type: 'reasoning_delta', delta: '', signature };
    opaque.length = 0;
  };

  const finishMessage = function* (): Generator<LanguageModelV1StreamPart> {
    yield* finish(stopReason === 'max_tokens' && lastStarted === 'tool');
    // A tool block still open here was cut off without its content_block_stop: its input may be a
    // prefix, so it ends invalid (never repaired) and the turn is broken.
    let cut = false;
    for (const block of open.values()) {
      if (block.kind !== 'tool') continue;
      cut = true;
      const call = decodeToolInput(
        block.id,
        block.name,
        block.json,
        'stream',
        'the stream ended without closing the block (no content_block_stop)',
      );
      yield { type: 'tool_call_end', id: block.id, call };
    }
    open.clear();
    finished = true;
    yield {
      type: 'finish',
      finishReason: cut || (corrupted && toolBlocks > 0) ? 'error' : mapStopReason(stopReason, toolBlocks > 0),
      ...(stopReason === undefined ? {} : { rawFinishReason: stopReason }),
      usage: mapUsage(usage),
      body: lastEvent,
    };
  };

  try {
    for await (const event of readSseEvents(body, { limits: context.limits, isKeepAlive: isPing })) {
      if (context.signal?.aborted) throw context.signal.reason;
      const data = parseJson(event.data);
      const record = asRecord(data);
      // Event types compared case-insensitively: `MESSAGE_DELTA` is no unknown event to skip.
      const type = (asString(record?.type) ?? event.event)?.toLowerCase();
      if (type === 'error' || event.event === 'error') {
        yield* finish(false);
        yield { type: 'error', error: errorFromEvent(data, event.data, context) };
        return;
      }
      if (record === undefined) {
        // A corrupted event after the stop reason: the turn can no longer be trusted to be whole.
        if (stopReason !== undefined && event.data.trim() !== '') corrupted = true;
        continue;
      }
      lastEvent = data;
      if (stopReason !== undefined && isContentAfterStop(type, record)) {
        yield* finish(true);
        yield violation(`sent ${type} after the stop reason (${stopReason})`);
        return;
      }
      switch (type) {
        case 'message_start': {
          if (messageStarted) {
            yield* finish(true);
            yield violation('sent a second message_start in one stream');
            return;
          }
          messageStarted = true;
          const message = asRecord(record.message);
          usage = readUsage(message?.usage, usage);
          if (!metadataSent) {
            metadataSent = true;
            const id = asNonEmptyString(message?.id);
            const modelId = asNonEmptyString(message?.model);
            yield {
              type: 'response_metadata',
              ...(id === undefined ? {} : { id }),
              ...(modelId === undefined ? {} : { modelId }),
            };
          }
          break;
        }
        case 'content_block_start': {
          blocksStarted += 1;
          if (blocksStarted > MAX_CONTENT_BLOCKS) {
            yield* finish(true);
            yield violation(`opened more than ${MAX_CONTENT_BLOCKS} content blocks`);
            return;
          }
          const index = typeof record.index === 'number' ? record.index : open.size;
          const block = asRecord(record.content_block) ?? {};
          lastStarted = block.type === 'text' ? 'text' : block.type === 'tool_use' ? 'tool' : 'opaque';
          if (block.type === 'text') {
            open.set(index, { kind: 'text' });
            const text = asString(block.text) ?? '';
            if (text !== '') yield { type: 'text_delta', delta: text };
          } else if (block.type === 'tool_use') {
            const id = asString(block.id) ?? `toolu_${index}`;
            const name = asString(block.name) ?? '';
            toolBlocks += 1;
            open.set(index, { kind: 'tool', id, name, json: '', start: block.input });
            yield { type: 'tool_call_start', id, name };
          } else {
            const copy: Record<string, unknown> = { ...block };
            if (block.type === 'thinking') {
              if (thinkingBlocks > 0) yield { type: 'reasoning_delta', delta: THINKING_SEPARATOR };
              thinkingBlocks += 1;
              const text = asString(block.thinking) ?? '';
              if (text !== '') yield { type: 'reasoning_delta', delta: text };
            }
            open.set(index, { kind: 'opaque', block: copy, json: '' });
          }
          break;
        }
        case 'content_block_delta': {
          const index = typeof record.index === 'number' ? record.index : -1;
          const delta = asRecord(record.delta) ?? {};
          const block = open.get(index);
          if (block === undefined) break;
          if (delta.type === 'text_delta' && block.kind === 'text') {
            const text = asString(delta.text) ?? '';
            if (text !== '') yield { type: 'text_delta', delta: text };
          } else if (delta.type === 'input_json_delta') {
            const piece = asString(delta.partial_json) ?? '';
            if (block.kind !== 'text') block.json += piece;
            if (block.kind === 'tool' && piece !== '')
              yield { type: 'tool_call_delta', id: block.id, argumentsDelta: piece };
          } else if (block.kind === 'opaque' && delta.type === 'thinking_delta') {
            const text = asString(delta.thinking) ?? '';
            block.block.thinking = `${asString(block.block.thinking) ?? ''}${text}`;
            if (text !== '') yield { type: 'reasoning_delta', delta: text };
          } else if (block.kind === 'opaque' && delta.type === 'signature_delta') {
            block.block.signature = `${asString(block.block.signature) ?? ''}${asString(delta.signature) ?? ''}`;
          } else if (block.kind === 'opaque' && delta.type === 'citations_delta') {
            // citations of server-tool text stay in the raw events
          }
          break;
        }
        case 'content_block_stop': {
          const index = typeof record.index === 'number' ? record.index : -1;
          const block = open.get(index);
          open.delete(index);
          if (block?.kind === 'tool') {
            const input = block.json !== '' ? block.json : block.start;
            calls.push({
              id: block.id,
              name: block.name,
              input: block.json === '' && isEmptyObject(input) ? '' : input,
            });
          } else if (block?.kind === 'opaque') {
            if (block.json !== '') block.block.input = parseJson(block.json) ?? block.json;
            opaque.push(block.block as OpaqueBlock);
          }
          break;
        }
        case 'message_delta': {
          const delta = asRecord(record.delta);
          const reason = rawStopReason(delta?.stop_reason);
          // The first stop reason holds, unless a later one is no normal end while it was.
          if (
            reason !== undefined &&
            (stopReason === undefined || (isNormalStop(stopReason) && !isNormalStop(reason)))
          ) {
            const refusal = refused ? undefined : readRefusal(reason, delta?.stop_details ?? record.stop_details);
            if (refusal !== undefined) {
              refused = true;
              yield { type: 'refusal_delta', delta: refusal };
            }
            stopReason = reason;
          }
          usage = readUsage(record.usage, usage);
          break;
        }
        case 'message_stop': {
          if (stopReason === undefined) break; // no stop reason: the model did not finish (see below)
          yield* finishMessage();
          return;
        }
        default:
          // ping and event types this adapter does not know
          break;
      }
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (finished) return;
    if (stopReason !== undefined) {
      yield* finishMessage();
      return;
    }
    yield* finish(true);
    yield {
      type: 'error',
      error: HttpFailure.isInstance(error)
        ? httpFailureError(error, context)
        : transportError('lost the connection mid-stream, before the model finished', error, {
            ...context,
            kind: 'incomplete_stream',
          }),
    };
    return;
  }
  if (context.signal?.aborted) throw context.signal.reason;
  if (finished) return;
  if (stopReason !== undefined) {
    // The stop reason (and the usage with it) arrived: the model finished, only message_stop was lost.
    yield* finishMessage();
    return;
  }
  yield* finish(true);
  yield {
    type: 'error',
    error: transportError('ended the stream before the model finished (no stop_reason)', undefined, {
      ...context,
      kind: 'incomplete_stream',
    }),
  };
}

/** True for an event that adds to the message's content (what may not follow its stop reason). */
function isContentAfterStop(type: string | undefined, record: Readonly<Record<string, unknown>>): boolean {
  if (type === 'content_block_start' || type === 'message_start') return true;
  if (type !== 'content_block_delta') return false;
  const delta = asRecord(record.delta);
  if (delta === undefined) return false;
  return Object.entries(delta).some(([key, value]) => key !== 'type' && value !== '' && value !== null);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
