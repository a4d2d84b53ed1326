import type { LanguageModelV1StreamPart, LanguageModelV1ToolCall } from '@tiny/llm';
import {
  asNonEmptyString,
  asRecord,
  asString,
  checkSseEvent,
  HttpFailure,
  type HttpLimits,
  readSseEvents,
  type SseEvent,
  type SseEventNames,
} from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, httpFailureError, transportError } from '../errors/create-call-error.js';
import { encodeOpaqueBlocks, type OpaqueBlock } from '../request/opaque-blocks.js';
import { decodeToolInput } from '../response/decode-tool-input.js';
import { mapStopReason, rawStopReason } from '../response/map-stop-reason.js';
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

/**
 * The Messages stream's event names. Anthropic names every event by its data's `type` and may add
 * types ("your code should handle unknown event types gracefully", the streaming guide's "Other
 * events"): an unknown name is skipped when its data names the same type, else it breaks the stream.
 */
const MESSAGES_EVENTS: SseEventNames = {
  names: [
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ],
  keepAlive: ['ping'],
  selfNamed: true,
};

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
 * opaque and sent once, as the signature of a last `reasoning_delta`. `ping` and an event of an
 * unknown type whose SSE name is that type are ignored; any other name (or one of the protocol's
 * names without data) is a `protocol_violation` (see `checkSseEvent`), and an event named `error`
 * is an error with or without data. A `refusal` stop reason sends one `refusal_delta` (the `stop_details` explanation,
 * see `readRefusal`) when its `message_delta` arrives.
 *
 * A second `stop_reason` (the same one included) is a `protocol_violation`. The stream is read to
 * its end: `message_stop` ends the turn only with the body, and any event after it (a second
 * `message_stop`, a `ping`, `[DONE]`, a foreign name) is a `protocol_violation`, an `error` event
 * (or error payload) an error; only comments and blank lines may follow. After `message_stop` the
 * body gets `STREAM_END_GRACE_MS` (1 s) more to end: a server keeping it open, or dropping it at
 * an event boundary, ends the turn normally (the body is cancelled); what arrives within the grace
 * is still checked, and half an event left at its end breaks the turn. A `[DONE]` before
 * `message_stop` is a `protocol_violation` too (the server ended the stream). A missing, non-string or `pause_turn` stop reason makes a turn with
 * tool calls finish `error` (see `mapStopReason`). Content after the stop reason (a block start, a
 * delta with content), a second `message_start` (or one after content blocks), a content block
 * started again while it is open or an index not above every index started before (indexes are fresh
 * and increasing: another message spliced in), two `tool_use` blocks with one id and more than `MAX_CONTENT_BLOCKS`
 * (512) blocks are a `protocol_violation` error: every call of the stream, closed or open, ends
 * invalid, so nothing of it is runnable. Empty thinking blocks add no separator; a compaction
 * block keeps the summary of its `compaction_delta` events.
 *
 * Endings: an `error` event ends with an `error` part after whatever arrived (kept). A connection
 * that drops (or a bound passed) before `message_stop`, after the stop reason too, ends with an
 * `incomplete_stream` error (the bound's kind for a bound) and every call invalid. A stream that
 * ends before a `message_delta` carried a `stop_reason` (or whose
 * `message_stop` comes while a block is open) ends with a retryable `incomplete_stream` error after
 * the text streamed so far; open calls end invalid. A `message_stop` after every block closed,
 * without a stop reason, finishes (`other`, or `error` with tool calls) keeping the usage. An event
 * that is not JSON before the stop reason is a retryable `invalid_chunk` error. Once the stop reason arrived, a missing
 * `message_stop` at a clean end of the body (not a dropped connection) is a normal finish with the stop
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
  /** The thinking block whose text was last streamed, so empty blocks add no separator. */
  let reasoningBlock = 0;
  let usage: WireUsage = {};
  let stopReason: string | undefined;
  let metadataSent = false;
  let finished = false;
  /** Set at `message_stop`: the stream is read to its end, and nothing but comments may follow. */
  let ended: string | undefined;
  let lastEvent: unknown;
  let lastStarted: OpenBlock['kind'] | undefined;
  let refused = false;
  let messageStarted = false;
  let corrupted = false;
  let blocksStarted = 0;
  let toolBlocks = 0;
  /** The highest content block index started: indexes are fresh and increasing within a message. */
  let highestIndex = -1;
  /** The tool ids seen in this message: one id names one call. */
  const toolIds = new Set<string>();
  const violation = (what: string): LanguageModelV1StreamPart => ({
    type: 'error',
    error: transportError(`broke the stream protocol: ${what}`, undefined, {
      ...context,
      kind: 'protocol_violation',
    }),
  });
  /** Ends every call (closed or open) invalid, then the protocol error: a corrupted stream runs nothing. */
  const broken = function* (what: string): Generator<LanguageModelV1StreamPart> {
    yield* finish(true, `the stream broke the Messages protocol (${what}); no call of it may run`);
    yield violation(what);
  };

  /**
   * Ends the closed calls: the last one invalid when `truncated`; every one, and every block still
   * open, invalid with the reason when `broken` (a protocol violation: nothing of it may run).
   */
  const finish = function* (truncated: boolean, broken?: string): Generator<LanguageModelV1StreamPart> {
    const last = calls.length - 1;
    for (const [index, call] of calls.entries()) {
      const decoded: LanguageModelV1ToolCall = decodeToolInput(
        call.id,
        call.name,
        call.input,
        'stream',
        broken ?? (truncated && index === last),
      );
      yield { type: 'tool_call_end', id: call.id, call: decoded };
    }
    calls.length = 0;
    if (broken !== undefined) {
      for (const block of open.values()) {
        if (block.kind !== 'tool') continue;
        yield {
          type: 'tool_call_end',
          id: block.id,
          call: decodeToolInput(block.id, block.name, block.json, 'stream', broken),
        };
      }
      open.clear();
    }
    const signature = encodeOpaqueBlocks(opaque);
    if (signature !== undefined) yield { type: 'reasoning_delta', delta: '', signature };
    opaque.length = 0;
  };

  /** Streams thinking text, with the separator before the first text of every block after the first that had text. */
  const reasoning = function* (text: string): Generator<LanguageModelV1StreamPart> {
    if (text === '') return;
    if (reasoningBlock !== thinkingBlocks) {
      if (reasoningBlock > 0) yield { type: 'reasoning_delta', delta: THINKING_SEPARATOR };
      reasoningBlock = thinkingBlocks;
    }
    yield { type: 'reasoning_delta', delta: text };
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
    // After message_stop the body gets STREAM_END_GRACE_MS to end (a server keeping it open ends the turn normally).
    const isEnded = () => ended !== undefined;
    for await (const event of readSseEvents(body, { limits: context.limits, isKeepAlive: isPing, isEnded })) {
      if (context.signal?.aborted) throw context.signal.reason;
      // The event's name decides first: `error` is an error whatever its data holds (none
      // included); a name the protocol does not have, or one of its names without data, breaks it.
      // After message_stop every event but an error breaks it (a second message_stop included).
      const check = checkSseEvent(event, MESSAGES_EVENTS, ended);
      if (check.verdict === 'keep_alive') continue;
      if (check.verdict === 'violation') {
        yield* broken(check.reason);
        return;
      }
      const data = parseJson(event.data);
      const record = asRecord(data);
      // Event types compared case-insensitively: `MESSAGE_DELTA` is no unknown event to skip.
      const type = (asString(record?.type) ?? event.event)?.toLowerCase();
      // An error event: Anthropic's `{type: 'error', error}`, or an OpenAI-shaped `{error: {...}}`
      // without a type from a relay (its inner type decides the kind).
      const shapedError =
        record !== undefined && record.type === undefined && record.error !== undefined && record.error !== null;
      if (type === 'error' || check.verdict === 'error' || shapedError) {
        yield* finish(false);
        yield { type: 'error', error: errorFromEvent(data, event.data, context) };
        return;
      }
      if (record === undefined) {
        const text = event.data.trim();
        // A relay's `[DONE]` says the server ended the stream: before message_stop (after it the
        // event check breaks the turn already) the turn was cut short, and that is no normal end.
        if (text === '[DONE]') {
          yield* broken('sent [DONE] before message_stop');
          return;
        }
        // Empty data and JSON that is no object carry nothing to read.
        if (text === '' || data !== undefined) continue;
        // A corrupted event after the stop reason: the turn can no longer be trusted to be whole.
        if (stopReason !== undefined) {
          corrupted = true;
          continue;
        }
        // Before it, an event that is not JSON may have been content: the turn is not whole
        // (a retryable invalid_chunk, as in the OpenAI-compatible adapter).
        yield* finish(true);
        yield {
          type: 'error',
          error: transportError('sent a stream event that is not JSON', parseFailure(event.data), {
            ...context,
            kind: 'invalid_chunk_json',
          }),
        };
        return;
      }
      lastEvent = data;
      if (stopReason !== undefined && isContentAfterStop(type, record)) {
        yield* broken(`sent ${type} after the stop reason (${stopReason})`);
        return;
      }
      switch (type) {
        case 'message_start': {
          if (messageStarted || blocksStarted > 0) {
            // Two messages spliced into one stream (or a message_start after content): merging them
            // would make the second message's calls look like a clean turn.
            const id = asNonEmptyString(asRecord(record.message)?.id);
            yield* broken(
              messageStarted
                ? `sent a second message_start${id === undefined ? '' : ` (${id})`} in one stream`
                : 'sent message_start after content blocks',
            );
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
            yield* broken(`opened more than ${MAX_CONTENT_BLOCKS} content blocks`);
            return;
          }
          const index = typeof record.index === 'number' ? record.index : highestIndex + 1;
          if (open.has(index)) {
            // A block started over one still open: another message's events spliced in.
            yield* broken(`started content block ${index} again while it was open`);
            return;
          }
          if (index <= highestIndex) {
            // Indexes are fresh and increasing: one reused after its block closed (a second call
            // at index 0) is another message's events spliced in, not a block of this one.
            yield* broken(
              `started content block ${index} again after block ${highestIndex} (indexes are fresh and increasing)`,
            );
            return;
          }
          highestIndex = index;
          const block = asRecord(record.content_block) ?? {};
          lastStarted = block.type === 'text' ? 'text' : block.type === 'tool_use' ? 'tool' : 'opaque';
          if (block.type === 'text') {
            open.set(index, { kind: 'text' });
            const text = asString(block.text) ?? '';
            if (text !== '') yield { type: 'text_delta', delta: text };
          } else if (block.type === 'tool_use') {
            const id = asString(block.id) ?? `toolu_${index}`;
            const name = asString(block.name) ?? '';
            if (toolIds.has(id)) {
              // Two calls under one id (a server tool's block included): which one a result
              // answers is ambiguous, so none may run.
              yield* broken(`sent tool id ${id} for two tool blocks in one message`);
              return;
            }
            toolIds.add(id);
            toolBlocks += 1;
            open.set(index, { kind: 'tool', id, name, json: '', start: block.input });
            yield { type: 'tool_call_start', id, name };
          } else {
            const copy: Record<string, unknown> = { ...block };
            // A server tool's block (`server_tool_use`, `mcp_tool_use`) holds its id as a call does.
            const blockId = asString(block.id);
            if (blockId !== undefined) {
              if (toolIds.has(blockId)) {
                yield* broken(`sent tool id ${blockId} for two tool blocks in one message`);
                return;
              }
              toolIds.add(blockId);
            }
            if (block.type === 'thinking') {
              thinkingBlocks += 1;
              yield* reasoning(asString(block.thinking) ?? '');
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
            yield* reasoning(text);
          } else if (block.kind === 'opaque' && delta.type === 'compaction_delta') {
            // The compaction summary arrives in deltas after a start with `content: null`; it and
            // its encrypted_content are replayed as received.
            const text = asString(delta.content);
            if (text !== undefined) block.block.content = `${asString(block.block.content) ?? ''}${text}`;
            if (delta.encrypted_content !== undefined) block.block.encrypted_content = delta.encrypted_content;
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
          if (reason !== undefined && stopReason !== undefined) {
            // A second stop reason (the same one included): a second message's ending spliced in,
            // or a relay's replay; which one ends the turn is not known, so none does.
            yield* broken(`sent a second stop reason (${reason}) after ${stopReason}`);
            return;
          }
          if (reason !== undefined) {
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
          // Without a stop reason, message_stop still ends a message whose blocks all closed: it
          // finishes with the usage received (`other`; `error` with tool calls, which never run).
          // With a block still open, the model did not finish (see below).
          if (stopReason === undefined && (open.size > 0 || blocksStarted === 0)) break;
          // The turn ends with the body: anything after message_stop (an error above all) breaks it.
          ended = 'message_stop';
          break;
        }
        default:
          // ping and event types this adapter does not know
          break;
      }
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (finished) return;
    // A dropped body (or a passed bound) before message_stop, after the stop reason too, or with
    // half an event after it (a drop at an event boundary after it ends the iteration normally):
    // the turn is not whole, and none of its calls runs.
    yield* finish(true, 'the stream broke off before message_stop; no call of it may run');
    yield {
      type: 'error',
      error: HttpFailure.isInstance(error)
        ? httpFailureError(error, context)
        : transportError(
            `lost the connection mid-stream, ${ended === undefined ? 'before message_stop' : 'inside an event after message_stop'}`,
            error,
            {
              ...context,
              kind: 'incomplete_stream',
            },
          ),
    };
    return;
  }
  if (context.signal?.aborted) throw context.signal.reason;
  if (finished) return;
  if (ended !== undefined) {
    yield* finishMessage();
    return;
  }
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

function parseFailure(data: string): unknown {
  try {
    JSON.parse(data);
    return undefined;
  } catch (error) {
    return error;
  }
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
