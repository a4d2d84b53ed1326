import type { LanguageModelV1StreamPart, LanguageModelV1ToolCall } from '@tiny/llm';
import {
  asNonEmptyString,
  asNumber,
  asRecord,
  asString,
  checkSseEvent,
  exceedsWireDepth,
  HttpFailure,
  type HttpLimits,
  MAX_WIRE_DEPTH,
  readSseEvents,
  redactDeep,
  redactSecret,
  type SseEventNames,
} from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, httpFailureError, transportError } from '../errors/create-call-error.js';
import { encodeReplayItems, type ReplayItem, type ReplaySlot } from '../request/replay-items.js';
import { checkFinalResponse, itemProblem, messageTexts, tooDeepForWire } from '../response/check-final-response.js';
import { CLIENT_ACTION_ITEMS, mapStatus } from '../response/map-status.js';
import { mapUsage } from '../response/map-usage.js';
import { MAX_OUTPUT_ITEMS, reasoningTexts, SUMMARY_SEPARATOR } from '../response/parse-response.js';
import { readCall } from '../response/read-call.js';

/** What the stream reader needs. @internal */
export interface StreamContext extends ErrorContext {
  readonly signal?: AbortSignal | undefined;
  readonly headers?: Headers | undefined;
  readonly limits?: HttpLimits | undefined;
}

/** An output item being received, by its `output_index`. */
interface OpenItem {
  readonly type: string;
  readonly itemId: string | undefined;
  /** The call id of a `function_call`. */
  readonly callId?: string | undefined;
  readonly name?: string | undefined;
  /** The argument text streamed so far (function calls). */
  json: string;
  /** Text or refusal streamed for this item (so a `done` item without deltas is streamed whole). */
  streamed: boolean;
  /** The output text streamed for this message item. */
  text: string;
  /** The refusal text streamed for this message item. */
  refusal: string;
  /** Reasoning text streamed for this item. */
  reasoned: boolean;
  /** The summary index last streamed, so a new summary part gets a separator. */
  summaryIndex: number | undefined;
  /** An argument delta arrived (the done item's arguments must then be the streamed text). */
  deltas: boolean;
  /** The last non-empty `encrypted_content` seen for a reasoning item (on `added` or `done`). */
  encrypted?: string | undefined;
}

/** An output item that is done, by its `output_index` (replay and the completed body follow this order). */
interface DoneItem {
  readonly index: number;
  readonly slot: ReplaySlot;
  readonly item: Readonly<Record<string, unknown>>;
}

/** Each terminal event type, with the only `status` its response may carry. */
const TERMINAL: ReadonlyMap<string, string> = new Map([
  ['response.completed', 'completed'],
  ['response.incomplete', 'incomplete'],
  ['response.failed', 'failed'],
  ['response.cancelled', 'cancelled'],
]);

/** The statuses a response may carry before its terminal event. */
const PENDING = new Set(['in_progress', 'queued']);

/** What a done item is compared by against the completed body's `output` (reasoning is re-encrypted per event). */
function shapeOf(value: unknown): string {
  const item = asRecord(value) ?? {};
  const type = asString(item.type) ?? '?';
  if (type === 'function_call')
    return JSON.stringify([
      type,
      item.call_id,
      item.name,
      typeof item.arguments === 'string' ? item.arguments : null,
      asString(item.status) ?? 'completed',
    ]);
  if (type === 'message') {
    // A message is compared by what it says: its text and its refusal, part by part joined.
    const { text, refusal } = messageTexts(item);
    return JSON.stringify([type, text, refusal]);
  }
  return JSON.stringify([type, asString(item.call_id) ?? null]);
}

/**
 * The body, passed through unchanged, with a watch on whether bytes arrived since the last event
 * boundary (a blank line): `partial()` is true while an event is half received.
 */
function watchBoundaries(body: ReadableStream<Uint8Array>): {
  body: ReadableStream<Uint8Array>;
  partial: () => boolean;
} {
  const decoder = new TextDecoder();
  let carry = '';
  let partial = false;
  const tap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const text = carry + decoder.decode(chunk, { stream: true });
      const boundary = Math.max(text.lastIndexOf('\n\n'), text.lastIndexOf('\r\r'), text.lastIndexOf('\r\n\r\n'));
      if (boundary >= 0) partial = text.slice(boundary).trim() !== '';
      else if (text.trim() !== '') partial = true;
      carry = text.slice(-3);
      controller.enqueue(chunk);
    },
  });
  return { body: body.pipeThrough(tap), partial: () => partial };
}

/**
 * The Responses stream names every event by its data's `type` and adds types over time: a name is
 * read when its data names the same type (a `response.*` name whose data names another type is
 * caught below); any other name, or a name without data, breaks the stream (see `checkSseEvent`).
 */
const RESPONSES_EVENTS: SseEventNames = { selfNamed: true, doneAfterEnd: true };

/** Event names that end the turn broken whatever their data holds. */
const FAILURE_NAMES = new Set(['error', 'response.failed', 'response.incomplete', 'response.cancelled']);

/** A short description of a data line that is no JSON object. */
function describeData(data: unknown, text: string): string {
  if (text.trim() === '') return 'no data';
  if (data === undefined) return 'data that is not JSON';
  return `${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data} data`;
}

/** The content of a message item sent without content, from what was streamed. */
function streamedContent(entry: OpenItem): Record<string, unknown>[] {
  return [
    ...(entry.text === '' ? [] : [{ type: 'output_text', text: entry.text }]),
    ...(entry.refusal === '' ? [] : [{ type: 'refusal', refusal: entry.refusal }]),
  ];
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads a Responses API event stream into stream parts. `response.output_text.delta` is text,
 * `response.refusal.delta` refusal, `response.reasoning_summary_text.delta` and
 * `response.reasoning_text.delta` reasoning (summaries and items separated by a blank line);
 * `function_call` items start a call by `call_id` at `output_item.added`, stream their
 * `function_call_arguments.delta` pieces, and end when the response ends: decoded leniently when it
 * is `completed`, invalid (never run) otherwise. Reasoning items (with the `encrypted_content` of
 * their `done` event), hosted tool items and unknown item types are kept opaque and sent once, as
 * the signature of a last `reasoning_delta` (see `encodeReplayItems`).
 *
 * The terminal event decides the finish (see `mapStatus`): `response.completed`, `.incomplete`
 * (a broken turn: `length` or `content_filter`, every call invalid), `.failed` or `error` (an
 * `error` part, every call invalid). A stream that ends or drops before a terminal event ends with a
 * retryable `incomplete_stream` error after what arrived; an event that is not JSON is a retryable
 * `invalid_chunk`. Splices are a non-retryable `protocol_violation` with every call invalid: a
 * second `response.created` or an event naming another response id, a `sequence_number` not above
 * the one before, an `output_index` reused or below one already started, a delta for an item that
 * is not open, two calls under one `call_id`, content after the terminal event's place, and more
 * than `MAX_OUTPUT_ITEMS` (512) items.
 *
 * The stream must agree with itself, else it is a `protocol_violation` too: the terminal event's
 * TYPE decides how the turn ended, and its response's `status` may only agree (a
 * `response.incomplete` saying `completed` is a violation, so is a `response.completed` with
 * `incomplete_details`); a `response.completed` carrying an `error` is that error; an SSE name
 * (but `message`, `error` and the failure names below) must be the data's `type`, and an event
 * named without data breaks the stream (`checkSseEvent`); the stream is read to its end and
 * anything after the terminal event but `[DONE]` and keep-alives is a violation (a connection lost
 * after it loses nothing); a done call item keeps the name, `call_id` and (after deltas) the
 * argument text it streamed, as must `function_call_arguments.done`; every `response` shown has the
 * same id, or none has one; events stay numbered once numbered; `response.created` comes first; a
 * non-empty `response.completed` `output` lists the streamed items in `output_index` order. Replay
 * items are kept by `output_index` with the place of every output item (see `encodeReplayItems`);
 * a reasoning item keeps the last non-empty `encrypted_content` seen; an item nested deeper than
 * `MAX_WIRE_DEPTH` ends the stream with an `invalid_chunk` error (it could not be replayed).
 *
 * Failure decides before data: an SSE event named `error` (in any case, with or without data), `response.failed`, `response.incomplete`
 * or `response.cancelled` ends the turn broken whatever its data holds (before or after the
 * terminal event); a JSON-array data line or an event nesting past `MAX_EVENT_DEPTH` is an
 * `invalid_chunk`; a pending event carrying `response.error` or `incomplete_details`, or any event
 * with a non-null `error`, ends the turn broken. After the terminal event a read failure (a bound,
 * a stall, a reset) breaks the turn, except a drop exactly at an event boundary with nothing
 * partial after it. After the terminal event the body gets `STREAM_END_GRACE_MS` (1 s) more to
 * end: a server keeping it open ends the turn as the terminal event said (the body is cancelled);
 * what arrives within the grace is still checked, and half an event left at its end breaks the
 * turn. A `[DONE]` before the terminal event is a `protocol_violation` (the server ended the
 * stream). The terminal response passes `checkFinalResponse` (as a whole body does); an
 * item left open then is a violation; a done message item must say the text it streamed (a refusal
 * part arriving whole is a refusal: every call refused); an item done `incomplete` cuts the turn
 * (finish `error`); input-only items (`*_output`) are violations. Call ids compare exactly; a
 * blank id is no id. The response id and model name, and kept items, are scrubbed of secrets.
 *
 * @throws the signal's reason when the call is aborted (from the iteration).
 * @internal
 */
export async function* streamResponse(
  body: ReadableStream<Uint8Array>,
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  const open = new Map<number, OpenItem>();
  const closed = new Set<number>();
  const calls: { item: Record<string, unknown>; json: string }[] = [];
  const callIds = new Set<string>();
  const done: DoneItem[] = [];
  /** The id every event's response carries ('' for none), once one carried a response. */
  let responseId: string | undefined;
  let created = false;
  /** The parts of the terminal event, sent once the stream ended with nothing after it. */
  let ending: { type: string; response: Record<string, unknown>; data: unknown } | undefined;
  let highestIndex = -1;
  let lastSequence = -1;
  let reasoningSeen = false;
  let refused = false;
  let itemsStarted = 0;
  /** Why the turn was cut short though it may complete (an output item done `incomplete`). */
  let cut: string | undefined;
  const watched = watchBoundaries(body);

  /** Ends every call: decoded, or invalid with `refuse`; then the replay items. */
  const endCalls = function* (refuse: string | undefined): Generator<LanguageModelV1StreamPart> {
    for (const { item, json } of calls) {
      const call: LanguageModelV1ToolCall = readCall(item, 'stream', refuse, json);
      yield { type: 'tool_call_end', id: call.id, call };
    }
    calls.length = 0;
    for (const item of open.values()) {
      if (item.type !== 'function_call' || item.callId === undefined) continue;
      const call = readCall(
        { call_id: item.callId, name: item.name, arguments: item.json },
        'stream',
        refuse ?? 'the stream ended before the call item was done',
      );
      yield { type: 'tool_call_end', id: call.id, call };
    }
    open.clear();
    const ordered = [...done].sort((a, b) => a.index - b.index);
    const signature = encodeReplayItems(
      ordered.filter((entry) => entry.slot === 'r').map((entry) => entry.item as ReplayItem),
      ordered.map((entry): ReplaySlot => (entry.slot === 'c' ? `c:${asString(entry.item.call_id) ?? ''}` : entry.slot)),
    );
    if (signature !== undefined) yield { type: 'reasoning_delta', delta: '', signature };
    done.length = 0;
  };

  const broken = function* (what: string): Generator<LanguageModelV1StreamPart> {
    yield* endCalls(`the stream broke the Responses protocol (${what}); no call of it may run`);
    yield {
      type: 'error',
      error: transportError(`broke the stream protocol: ${what}`, undefined, {
        ...context,
        kind: 'protocol_violation',
      }),
    };
  };

  const reasoning = function* (
    item: OpenItem | undefined,
    text: string,
    summaryIndex?: number,
  ): Generator<LanguageModelV1StreamPart> {
    if (text === '') return;
    const newPart =
      item !== undefined && (!item.reasoned || (summaryIndex !== undefined && summaryIndex !== item.summaryIndex));
    if (newPart && reasoningSeen) yield { type: 'reasoning_delta', delta: SUMMARY_SEPARATOR };
    if (item !== undefined) {
      item.reasoned = true;
      item.summaryIndex = summaryIndex;
    }
    reasoningSeen = true;
    yield { type: 'reasoning_delta', delta: text };
  };

  /** The outcome of a terminal event that is not an error (sent when nothing follows it). */
  const settle = function* (
    type: string,
    final: Record<string, unknown>,
    data: unknown,
  ): Generator<LanguageModelV1StreamPart> {
    if (type === 'response.completed' && final.error !== undefined && final.error !== null) {
      // A completed response carrying an error is that error, as a whole body with one is.
      yield* endCalls('the completed response carries an error; no call of it may run');
      yield { type: 'error', error: errorFromEvent(asRecord(final.error) ?? final, JSON.stringify(data), context) };
      return;
    }
    if (open.size > 0) {
      // An item left open at the terminal event was never whole: what it held (encrypted
      // reasoning, a hosted item) could not be replayed.
      yield* broken(`${type} arrived with output item ${[...open.keys()][0]} still open`);
      return;
    }
    const output = Array.isArray(final.output) ? final.output : [];
    if (type === 'response.completed' && output.length > 0) {
      // The completed body repeats every output item: it must be the items streamed, in order.
      const streamed = [...done].sort((a, b) => a.index - b.index).map((entry) => shapeOf(entry.item));
      if (output.length !== streamed.length || output.some((item, i) => shapeOf(item) !== streamed[i])) {
        yield* broken('the completed response lists other output items than the stream sent');
        return;
      }
    }
    const unanswered = [...done.map((entry) => entry.item), ...open.values()]
      .map((item) => asString(item.type) ?? '')
      .find((itemType) => CLIENT_ACTION_ITEMS.has(itemType));
    const end = mapStatus(
      { ...final, status: TERMINAL.get(type) },
      calls.length > 0 || [...open.values()].some((item) => item.type === 'function_call'),
      refused,
      unanswered,
      cut,
    );
    yield* endCalls(end.broken);
    yield {
      type: 'finish',
      finishReason: end.finishReason,
      ...(end.rawFinishReason === undefined ? {} : { rawFinishReason: end.rawFinishReason }),
      usage: mapUsage(final.usage),
      body: redactDeep(data, context.secret),
    };
  };

  try {
    // After the terminal event the body gets STREAM_END_GRACE_MS to end (a server keeping it open ends the turn as it said).
    const isEnded = () => ending !== undefined;
    for await (const event of readSseEvents(watched.body, { limits: context.limits, isEnded })) {
      if (context.signal?.aborted) throw context.signal.reason;
      const data = parseJson(event.data);
      const record = asRecord(data);
      // After the terminal event every event but an error and `[DONE]` breaks it (a second one included).
      const check = checkSseEvent(event, RESPONSES_EVENTS, ending?.type);
      // After the terminal event the check has said: every event there is a violation.
      const failureName =
        ending !== undefined
          ? undefined
          : check.verdict === 'error'
            ? 'error'
            : event.event !== undefined && FAILURE_NAMES.has(event.event)
              ? event.event
              : undefined;
      if (failureName !== undefined && record === undefined) {
        // The SSE name decides first: an error (or failed, incomplete) event ends the turn
        // broken whatever its data holds (none included), before or after the terminal event.
        yield* endCalls(`the stream sent an ${failureName.slice(0, 40)} event; no call of it may run`);
        const text = event.data.trim();
        yield {
          type: 'error',
          error:
            failureName === 'error'
              ? errorFromEvent(
                  {
                    message:
                      typeof data === 'string'
                        ? data
                        : text === ''
                          ? 'an error event without data'
                          : text.slice(0, 200),
                  },
                  event.data,
                  context,
                )
              : transportError(
                  `broke the stream protocol: sent a ${failureName} event with ${describeData(data, event.data)}`,
                  undefined,
                  { ...context, kind: 'protocol_violation' },
                ),
        };
        return;
      }
      if (check.verdict === 'violation') {
        // A name the protocol does not have (a proxy's own), or one without data: the stream is
        // not the protocol's, before or after the terminal event.
        yield* broken(check.reason);
        return;
      }
      if (Array.isArray(data) || (record !== undefined && tooDeepForWire(record))) {
        // An array is no event (not a wrapped one either); a value this deep is no event to read.
        yield* endCalls('the stream sent an event that is no event object; no call of it may run');
        yield {
          type: 'error',
          error: transportError(
            Array.isArray(data) ? 'sent a stream event that is a JSON array' : 'sent a stream event nested too deep',
            undefined,
            { ...context, kind: 'invalid_chunk_json' },
          ),
        };
        return;
      }
      // Read to the end: after the terminal event only `[DONE]` may come (see `checkSseEvent`).
      if (check.verdict === 'keep_alive') continue;
      if (record === undefined) {
        const text = event.data.trim();
        if (text === '[DONE]' && ending === undefined) {
          // `[DONE]` says the server ended the stream: before the terminal event the turn was cut short.
          yield* broken('sent [DONE] before the terminal event');
          return;
        }
        if (text === '' || text === '[DONE]' || data !== undefined) continue;
        yield* endCalls('the stream sent an event that is not JSON; no call of it may run');
        yield {
          type: 'error',
          error: transportError('sent a stream event that is not JSON', undefined, {
            ...context,
            kind: 'invalid_chunk_json',
          }),
        };
        return;
      }
      const type = asString(record.type) ?? event.event ?? '';
      if (type === 'error' || check.verdict === 'error' || (record.error !== undefined && record.error !== null)) {
        yield* endCalls('the stream reported an error; no call of it may run');
        const error =
          asRecord(record.error) ??
          (typeof record.error === 'string' && record.type !== 'error' ? { message: record.error } : record);
        yield { type: 'error', error: errorFromEvent(error, event.data, context) };
        return;
      }
      if (
        // An SSE name of the protocol (`response.*`) must be the data's type (`message`, the SSE
        // default, names nothing and the data's type stands; other names were checked above).
        event.event?.startsWith('response.') === true &&
        typeof record.type === 'string' &&
        event.event !== record.type
      ) {
        yield* broken(`sent an event named ${event.event.slice(0, 60)} whose data is ${record.type.slice(0, 60)}`);
        return;
      }
      const sequence = asNumber(record.sequence_number);
      if (sequence === undefined && lastSequence >= 0) {
        yield* broken(`sent ${type.slice(0, 60) || 'an event'} without a sequence_number after numbered events`);
        return;
      }
      if (sequence !== undefined) {
        if (sequence <= lastSequence) {
          yield* broken(`sent sequence_number ${sequence} after ${lastSequence}`);
          return;
        }
        lastSequence = sequence;
      }
      if (!created && type !== 'response.created') {
        yield* broken(`sent ${type.slice(0, 60) || 'an event without a type'} before response.created`);
        return;
      }
      const response = asRecord(record.response);
      if (response !== undefined) {
        // Every response the stream shows is one: the same id on each, or none on any.
        const id = asNonEmptyString(response.id) ?? '';
        if (responseId !== undefined && id !== responseId) {
          yield* broken(
            `sent events of response ${id === '' ? '(no id)' : id} inside response ${responseId === '' ? '(no id)' : responseId}`,
          );
          return;
        }
        responseId = id;
      }
      const expected = TERMINAL.get(type);
      const status = response?.status;
      if (expected === undefined && response !== undefined) {
        // A response that is not over yet carries no failure: one that does ended the turn broken.
        if (response.error !== undefined && response.error !== null) {
          yield* endCalls(`${type.slice(0, 60)} carries an error; no call of it may run`);
          yield {
            type: 'error',
            error: errorFromEvent(
              asRecord(response.error) ?? { message: String(asString(response.error) ?? 'an error that is no object') },
              event.data,
              context,
            ),
          };
          return;
        }
        if (response.incomplete_details !== undefined && response.incomplete_details !== null) {
          yield* broken(`sent ${type.slice(0, 60)} for a response with incomplete_details`);
          return;
        }
      }
      if (expected === undefined && response !== undefined && status !== undefined) {
        if (typeof status !== 'string' || !PENDING.has(status)) {
          yield* broken(
            `sent ${type.slice(0, 60)} for a response with status ${typeof status === 'string' ? status.slice(0, 40) : `of type ${typeof status}`}`,
          );
          return;
        }
      }
      if (type === 'response.created') {
        if (created) {
          yield* broken('sent a second response.created in one stream');
          return;
        }
        created = true;
        const eventResponseId = asNonEmptyString(response?.id);
        // What the server echoes (a key in the model name) stays out of what the caller sees.
        const modelId = redactSecret(asNonEmptyString(response?.model), context.secret);
        yield {
          type: 'response_metadata',
          ...(eventResponseId === undefined ? {} : { id: redactSecret(eventResponseId, context.secret) }),
          ...(modelId === undefined ? {} : { modelId }),
        };
        continue;
      }
      if (expected !== undefined) {
        // The event type decides how the response ended; its body may only agree.
        if (response === undefined) {
          yield* broken(`sent ${type} without its response`);
          return;
        }
        if (status !== undefined && status !== expected) {
          yield* broken(
            `sent ${type} for a response with status ${typeof status === 'string' ? status.slice(0, 40) : `of type ${typeof status}`}`,
          );
          return;
        }
        const problem = checkFinalResponse(response, expected);
        if (problem.violation !== undefined) {
          yield* broken(`sent ${type}: ${problem.violation}`);
          return;
        }
        cut ??= problem.cut;
        if (type === 'response.failed') {
          yield* endCalls('the response failed; no call of it may run');
          const error = asRecord(response.error) ?? { message: 'the response failed without an error object' };
          yield { type: 'error', error: errorFromEvent(error, event.data, context, 'reported a failed response') };
          return;
        }
        ending = { type, response, data };
        continue;
      }
      const index = asNumber(record.output_index);
      if (index !== undefined && (!Number.isInteger(index) || index < 0)) {
        yield* broken(`sent output_index ${index}, which is no item position`);
        return;
      }
      const itemId = asString(record.item_id);
      switch (type) {
        case 'response.output_item.added': {
          const item = asRecord(record.item) ?? {};
          const at = index ?? highestIndex + 1;
          itemsStarted += 1;
          if (itemsStarted > MAX_OUTPUT_ITEMS) {
            yield* broken(`opened more than ${MAX_OUTPUT_ITEMS} output items`);
            return;
          }
          if (open.has(at) || closed.has(at) || at <= highestIndex) {
            yield* broken(
              `started output item ${at} again or after item ${highestIndex} (indexes are fresh and increasing)`,
            );
            return;
          }
          highestIndex = at;
          const added = itemProblem(record.item, at);
          if (added.violation !== undefined) {
            yield* broken(`started ${added.violation}`);
            return;
          }
          const itemType = asString(item.type) ?? 'unknown';
          const entry: OpenItem = {
            type: itemType,
            itemId: asString(item.id),
            json: '',
            text: '',
            refusal: '',
            streamed: false,
            reasoned: false,
            summaryIndex: undefined,
            deltas: false,
            encrypted: asNonEmptyString(item.encrypted_content),
            ...(itemType === 'function_call'
              ? { callId: asString(item.call_id) ?? '', name: asString(item.name) ?? '' }
              : { callId: asString(item.call_id) }),
          };
          // Ids are compared exactly (`c1` and `c1 ` are two ids); a blank id twice is one id twice.
          const callId = entry.callId ?? '';
          if (callId !== '' && callIds.has(callId)) {
            yield* broken(`sent call_id ${JSON.stringify(callId.slice(0, 60))} for two calls in one response`);
            return;
          }
          if (callId !== '') callIds.add(callId);
          if (itemType === 'function_call') {
            open.set(at, entry);
            yield { type: 'tool_call_start', id: callId, name: entry.name ?? '' };
          } else {
            open.set(at, entry);
          }
          break;
        }
        case 'response.function_call_arguments.delta':
        case 'response.function_call_arguments.done': {
          const item = index === undefined ? undefined : open.get(index);
          if (
            item?.type !== 'function_call' ||
            (itemId !== undefined && item.itemId !== undefined && itemId !== item.itemId)
          ) {
            yield* broken(`sent arguments for output item ${index ?? '?'}, which is not an open function call`);
            return;
          }
          if (type === 'response.function_call_arguments.done') {
            const text = record.arguments;
            if (text !== undefined && text !== item.json) {
              yield* broken(`finished the arguments of output item ${index} as other text than it streamed`);
              return;
            }
            break;
          }
          const piece = asString(record.delta) ?? '';
          item.json += piece;
          item.deltas = true;
          if (piece !== '') yield { type: 'tool_call_delta', id: item.callId ?? '', argumentsDelta: piece };
          break;
        }
        case 'response.output_text.delta':
        case 'response.refusal.delta': {
          const item = index === undefined ? undefined : open.get(index);
          if (
            item?.type !== 'message' ||
            (itemId !== undefined && item.itemId !== undefined && itemId !== item.itemId)
          ) {
            yield* broken(`sent text for output item ${index ?? '?'}, which is not an open message`);
            return;
          }
          const piece = asString(record.delta) ?? '';
          item.streamed = true;
          if (type === 'response.refusal.delta') item.refusal += piece;
          else item.text += piece;
          if (piece === '') break;
          if (type === 'response.refusal.delta') {
            refused = true;
            yield { type: 'refusal_delta', delta: piece };
          } else yield { type: 'text_delta', delta: piece };
          break;
        }
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          const item = index === undefined ? undefined : open.get(index);
          if (item?.type !== 'reasoning') {
            yield* broken(`sent reasoning for output item ${index ?? '?'}, which is not an open reasoning item`);
            return;
          }
          const summary = type === 'response.reasoning_summary_text.delta' ? (asNumber(record.summary_index) ?? 0) : -1;
          yield* reasoning(item, asString(record.delta) ?? '', summary);
          break;
        }
        case 'response.output_item.done': {
          const item = asRecord(record.item) ?? {};
          const at = index ?? -1;
          const entry = open.get(at);
          if (entry === undefined) {
            yield* broken(`finished output item ${at}, which is not open`);
            return;
          }
          const itemType = asString(item.type) ?? entry.type;
          const callId = asString(item.call_id);
          const name = asString(item.name);
          if (
            itemType !== entry.type ||
            (entry.type !== 'function_call' &&
              callId !== undefined &&
              callId !== entry.callId &&
              callIds.has(callId)) ||
            (entry.type === 'function_call' &&
              ((callId !== undefined && callId !== entry.callId) ||
                (name !== undefined && entry.name !== '' && name !== entry.name) ||
                (entry.deltas && item.arguments !== undefined && item.arguments !== entry.json)))
          ) {
            yield* broken(`finished output item ${at} as another item than it started`);
            return;
          }
          const finished = itemProblem(record.item, at);
          if (finished.violation !== undefined) {
            yield* broken(`finished ${finished.violation}`);
            return;
          }
          cut ??= finished.cut;
          open.delete(at);
          closed.add(at);
          if (itemType === 'function_call') {
            const call = {
              ...item,
              type: 'function_call',
              call_id: entry.callId,
              name: name ?? entry.name,
              arguments: item.arguments === undefined ? entry.json : item.arguments,
            };
            calls.push({ item: call, json: entry.json });
            done.push({ index: at, slot: 'c', item: call });
          } else if (itemType === 'message') {
            const said = messageTexts(item);
            const hasContent = Array.isArray(item.content);
            if (
              entry.streamed &&
              hasContent &&
              (said.text !== entry.text || (entry.refusal !== '' && said.refusal !== entry.refusal))
            ) {
              // The done item is read like a call's: it must say what was streamed.
              yield* broken(`finished message item ${at} with other text than it streamed`);
              return;
            }
            // The slot keeps the message's text length, so replay keeps each message in its place.
            done.push({
              index: at,
              slot: `m:${entry.streamed ? entry.text.length : said.text.length}`,
              item: { ...item, type: 'message', ...(hasContent ? {} : { content: streamedContent(entry) }) },
            });
            if (!entry.streamed) {
              // A server that sends the item whole, without deltas: its parts now.
              for (const part of Array.isArray(item.content) ? item.content : []) {
                const content = asRecord(part);
                if (content?.type === 'output_text' && asString(content.text))
                  yield { type: 'text_delta', delta: asString(content.text) ?? '' };
                else if (content?.type === 'refusal' && asString(content.refusal)) {
                  refused = true;
                  yield { type: 'refusal_delta', delta: asString(content.refusal) ?? '' };
                }
              }
            } else if (entry.refusal === '' && said.refusal !== '') {
              // A refusal that arrives whole in the done item is a refusal all the same.
              refused = true;
              yield { type: 'refusal_delta', delta: said.refusal };
            }
          } else {
            const encrypted = asNonEmptyString(item.encrypted_content) ?? entry.encrypted;
            // What the server echoed (a key in a hosted item's query) never rides the envelope.
            const kept: ReplayItem = redactDeep(
              {
                ...item,
                type: itemType,
                ...(itemType === 'reasoning' && encrypted !== undefined ? { encrypted_content: encrypted } : {}),
              },
              context.secret,
            );
            if (exceedsWireDepth(kept, MAX_WIRE_DEPTH)) {
              // Replay could not carry it; losing it would break the next turn's reasoning.
              yield* endCalls(`output item ${at} nests too deep to replay; no call of it may run`);
              yield {
                type: 'error',
                error: transportError(
                  `sent output item ${at} nested deeper than ${MAX_WIRE_DEPTH} levels (it could not be replayed)`,
                  undefined,
                  { ...context, kind: 'invalid_response' },
                ),
              };
              return;
            }
            if (itemType === 'reasoning' && !entry.reasoned)
              for (const text of reasoningTexts(item)) yield* reasoning(entry, text, undefined);
            done.push({ index: at, slot: 'r', item: kept });
          }
          break;
        }
        default:
          // response.in_progress, content_part.added/done, *.done summaries, hosted tool progress
          // events (web_search_call.searching, ...) and event types this adapter does not know.
          break;
      }
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (ending !== undefined && !HttpFailure.isInstance(error) && !watched.partial()) {
      // The terminal event arrived and the connection dropped exactly at an event boundary after
      // it: nothing after it was lost.
      yield* settle(ending.type, ending.response, ending.data);
      return;
    }
    if (ending !== undefined) {
      // Something after the terminal event was lost (half an event, one past a bound, a stall):
      // it could have been an error, so the turn is broken.
      yield* endCalls(`the stream failed after ${ending.type} while an event was arriving; no call of it may run`);
      yield {
        type: 'error',
        error: HttpFailure.isInstance(error)
          ? httpFailureError(error, context)
          : transportError(`lost the connection inside an event after ${ending.type}`, error, {
              ...context,
              kind: 'incomplete_stream',
            }),
      };
      return;
    }
    yield* endCalls('the connection dropped before the response ended; no call of it may run');
    yield {
      type: 'error',
      error: HttpFailure.isInstance(error)
        ? httpFailureError(error, context)
        : transportError('lost the connection mid-stream, before the response ended', error, {
            ...context,
            kind: 'incomplete_stream',
          }),
    };
    return;
  }
  if (context.signal?.aborted) throw context.signal.reason;
  if (ending !== undefined) {
    yield* settle(ending.type, ending.response, ending.data);
    return;
  }
  yield* endCalls('the stream ended before the response did; no call of it may run');
  yield {
    type: 'error',
    error: transportError('ended the stream before the response ended (no response.completed)', undefined, {
      ...context,
      kind: 'incomplete_stream',
    }),
  };
}
