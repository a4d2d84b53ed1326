import type { LanguageModelV1Choice, LanguageModelV1StreamPart, LanguageModelV1Usage } from '@tiny/llm';
import {
  asArray,
  asNonEmptyString,
  asRecord,
  checkSseEvent,
  HttpFailure,
  readSseEvents,
  type SseEvent,
  type SseEventNames,
} from '@tiny/provider-utils';
import { errorFromBody, httpFailureError, transportError } from '../errors/create-call-error.js';
import { mapUsage } from '../response/map-usage.js';
import { choiceIndex, MAX_CHOICES, parseCompletion } from '../response/parse-completion.js';
import type { StreamContext } from '../response/read-context.js';
import { wireId } from '../wire/read-wire.js';
import { ChoiceFold, ChoiceStream, type StreamEnding } from './choice-stream.js';

import { partsOfCompletion } from './completion-to-parts.js';

function parseJson(data: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(data) as unknown };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Usage fields sent later win; fields a later chunk leaves out (or sends as `null`) are kept. */
function mergeUsage(previous: LanguageModelV1Usage, chunk: Readonly<Record<string, unknown>>): LanguageModelV1Usage {
  const wire = asRecord(chunk.usage) ?? asRecord(asRecord(chunk.x_groq)?.usage);
  return wire === undefined ? previous : { ...previous, ...mapUsage(wire) };
}

/** A keep-alive event (`event: ping`, a `{"type":"ping"}` payload): delivered, but no progress for the idle bound. */
const isKeepAlive = (event: SseEvent): boolean =>
  event.event === 'ping' || /^\s*\{\s*"type"\s*:\s*"ping"\s*\}\s*$/.test(event.data);

/**
 * Chat-completions streams send unnamed `data:` events (an `event: error` or `error:` line for a
 * failure); `ping` is a keep-alive. Any other name breaks the stream.
 */
const CHAT_EVENTS: SseEventNames = { keepAlive: ['ping'] };

/** A chunk with content for any choice (what a second completion spliced in would bring). */
function carriesContent(chunk: Readonly<Record<string, unknown>>): boolean {
  return asArray(chunk.choices).some((entry) => {
    const choice = asRecord(entry);
    return [asRecord(choice?.delta), asRecord(choice?.message)].some(
      (delta) =>
        delta !== undefined &&
        Object.entries(delta).some(
          ([key, value]) => key !== 'role' && value !== null && value !== '' && value !== undefined,
        ),
    );
  });
}

/** A chunk with a finish reason for any choice. */
function carriesFinish(chunk: Readonly<Record<string, unknown>>): boolean {
  return asArray(chunk.choices).some((entry) => {
    const reason = asRecord(entry)?.finish_reason;
    return reason !== undefined && reason !== null && reason !== '';
  });
}

function protocolError(what: string, context: StreamContext & { httpStatus: number }) {
  return transportError(`broke the stream protocol: ${what}`, undefined, {
    ...context,
    kind: 'protocol_violation',
  });
}

function isErrorChunk(chunk: Readonly<Record<string, unknown>>): boolean {
  return (chunk.error !== undefined && chunk.error !== null) || chunk.object === 'error';
}

/**
 * Turns a chat-completions SSE body into stream parts (P2):
 * - `response_metadata` once, from the first chunk with an id or a model;
 * - each choice apart, by its `index` (see `ChoiceStream`): choice `0`'s reasoning, refusal,
 *   text and tool-call parts are the stream's parts; other choices (`n > 1`) are folded and
 *   delivered as `choices` on the `finish` part;
 * - at the end of the body (read to its end: after `[DONE]` any event, a second `[DONE]`, an error
 *   and a keep-alive included, is `protocol_violation`; only comments may follow): choice `0`'s
 *   calls ended in order, then one `finish` with its `finish_reason` and the usage (merged over every usage chunk, Groq's `x_groq.usage`
 *   included).
 *
 * Endings and errors, each an `error` part carrying an `OpenAICompatibleCallError` after whatever
 * was already streamed (so `collectStreamSettled` keeps it):
 * - a stream that ends, with or without `[DONE]`, before choice `0` has a `finish_reason` is
 *   `incomplete_stream` (retryable); once the finish reason has arrived, a clean end of the body
 *   without `[DONE]` is a normal finish with the finish reason and usage received, but with call
 *   arguments never repaired (a cut-off call stays invalid and the finish is `error`); a non-JSON
 *   event after it finishes as `error` when the turn has tool calls, so none of them runs; an
 *   error (event or chunk) after it ends the turn with the error, as before it;
 * - a dropped connection (or a passed bound) before `[DONE]`, after the finish reason too, ends
 *   with an `incomplete_stream` error (the bound's kind for a bound) and every call invalid; after
 *   `[DONE]` the body gets `STREAM_END_GRACE_MS` (1 s) more to end: a server keeping it open, or
 *   dropping it at an event boundary, ends the turn normally (the body is cancelled), while what
 *   arrives within the grace is still checked and half an event left at its end breaks the turn;
 * - a second finish reason for one choice (the same one included) is `protocol_violation`;
 * - a chunk with choices whose id is not the first such chunk's id (absent and present differ),
 *   carrying content or a finish reason, is a second completion spliced in; so is a second
 *   `role` chunk after content from a server that sends the role only at the start, and a tool
 *   call renamed mid-call (see `ToolCallAssembler`): each is `protocol_violation` (not
 *   retryable) with every call of the stream invalid;
 * - content after a choice's finish reason, more than `MAX_CHOICES` (128) choices or more
 *   than 256 tool calls in a choice is `protocol_violation` (not retryable);
 * - an error in any form servers use: a `data:` payload with `error` (or `object: "error"`), an
 *   `event: error` (with data or without), an `error:` line, a JSON body without any event; with
 *   the server's message and code;
 * - event names are checked by `checkSseEvent`: chat completions name none but `error` and the
 *   keep-alive `ping`; any other name, with data or without, is `protocol_violation` with every
 *   call invalid, after the finish too; an error payload under `ping` or another name, and a name
 *   that trims and lower-cases to `error`, is an error;
 * - an event that is not JSON, or is a JSON array (a chunk is one object), is `invalid_chunk_json` (kind `invalid_chunk`);
 * - chunk ids are compared in their string form whatever their JSON type (numeric ids included);
 *   one chunk listing a choice index twice is `protocol_violation`;
 * - a line, event or stream past `limits` is `response_too_large`; a stream without a meaningful
 *   event for `limits.idleTimeoutMs` (keep-alive comments do not count), or longer than
 *   `limits.totalTimeoutMs`, is `response_timeout` (an error part, after the finish reason too).
 * An abort throws the signal's reason.
 * @internal
 */
export async function* streamCompletion(
  body: ReadableStream<Uint8Array>,
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  const choices = new Map<number, { stream: ChoiceStream; fold: ChoiceFold }>();
  const choiceFor = (index: number) => {
    let entry = choices.get(index);
    if (entry === undefined) {
      entry = { stream: new ChoiceStream(index, context), fold: new ChoiceFold() };
      choices.set(index, entry);
    }
    return entry;
  };
  let ending: StreamEnding = 'eof';
  const primary = choiceFor(0);
  let metadataSent = false;
  let firstId: string | undefined;
  let identified = false;
  /** Set at `[DONE]`: the stream is read to its end, and nothing but comments may follow. */
  let ended: string | undefined;
  /** Ends choice 0's calls invalid, then the protocol error: a corrupted stream runs nothing. */
  function* broken(what: string): Generator<LanguageModelV1StreamPart> {
    yield* emit(0, primary.stream.finish(true, `the stream broke the protocol (${what}); no call of it may run`));
    yield { type: 'error', error: protocolError(what, streamContext) };
  }
  let usage: LanguageModelV1Usage = {};
  const streamContext = { ...context, httpStatus: context.httpStatus ?? 200 };

  function* emit(index: number, parts: readonly LanguageModelV1StreamPart[]): Generator<LanguageModelV1StreamPart> {
    const entry = choiceFor(index);
    for (const part of parts) {
      entry.fold.add(part);
      if (index === 0) yield part;
    }
  }

  try {
    // After `[DONE]` the body gets STREAM_END_GRACE_MS to end (a server keeping it open ends the turn normally).
    const isEnded = () => ended !== undefined;
    for await (const event of readSseEvents(body, { limits: context.limits, isKeepAlive, isEnded })) {
      if (context.signal?.aborted) throw context.signal.reason;
      const data = event.data.trim();
      // The event's name decides first: `error` is an error whatever its data holds (none
      // included), and a name this protocol does not have breaks the stream, after the finish too.
      // After `[DONE]` every event but an error breaks it (a second `[DONE]` included).
      const check = checkSseEvent(event, CHAT_EVENTS, ended);
      if (check.verdict === 'keep_alive') continue;
      if (check.verdict === 'violation') {
        yield* broken(check.reason);
        return;
      }
      const named = check.verdict === 'error';
      if (data === '[DONE]' && !named) {
        // The turn ends with the body: anything after [DONE] (an error above all) breaks it.
        ending = 'done';
        ended = '[DONE]';
        continue;
      }
      if (data === '' && !named) continue;
      const parsed = parseJson(data);
      if (event.whole === true && parsed.ok) {
        const record = asRecord(parsed.value);
        if (record !== undefined && !isErrorChunk(record) && record.object !== 'chat.completion.chunk') {
          // A whole completion under text/event-stream.
          try {
            yield* partsOfCompletion(parseCompletion(parsed.value, data, streamContext));
          } catch (error) {
            yield { type: 'error', error };
          }
          return;
        }
      }
      // A chunk is one JSON object: a `data:` line holding an array (of chunks, maybe of other
      // completions) is no chunk, read like an event that is not JSON (never only its first element).
      if ((!parsed.ok || Array.isArray(parsed.value)) && !named) {
        if (primary.stream.finished) {
          ending = 'failed';
          break;
        }
        yield {
          type: 'error',
          error: transportError(
            parsed.ok
              ? 'sent a stream event that is a JSON array, not a chunk'
              : 'sent a stream event that is not JSON',
            parsed.ok ? undefined : parsed.error,
            {
              ...streamContext,
              kind: 'invalid_chunk_json',
            },
          ),
        };
        return;
      }
      const value = parsed.ok
        ? parsed.value
        : { error: { message: data === '' ? 'an error event without data' : data } };
      const chunk = asRecord(value);
      if (named || chunk === undefined || isErrorChunk(chunk)) {
        if (chunk !== undefined) usage = mergeUsage(usage, chunk);
        // An error event may carry the error object itself (llama.cpp `error: {"code":500,...}`).
        // After a finish (a normal one too, or OpenRouter's error chunk after `length`) the error
        // is the ending, with the usage received: a turn the server says failed is no normal turn.
        const payload = chunk !== undefined && !isErrorChunk(chunk) ? { error: chunk } : value;
        if (primary.stream.finished) yield* emit(0, primary.stream.finish(true));
        yield {
          type: 'error',
          error: errorFromBody(payload, data, { ...streamContext, where: 'stream', usage }),
        };
        return;
      }
      // Ids are compared in their string form whatever their JSON type (`1` and `2` differ).
      const chunkId = wireId(chunk.id);
      if (!metadataSent && (chunkId !== undefined || asNonEmptyString(chunk.model) !== undefined)) {
        metadataSent = true;
        yield { type: 'response_metadata', id: chunkId, modelId: asNonEmptyString(chunk.model) };
      }
      if (asArray(chunk.choices).length > 0) {
        // Every chunk of one completion carries its id (or none, every one): the first chunk with
        // choices sets it, and a chunk with choices under another id (absent then present, present
        // then absent, or another) is a second completion spliced in, its finish included. Merging
        // them would make the second one's calls look like a clean turn. Chunks without choices
        // (Azure's prompt-filter chunk with an empty id, a usage chunk) carry no turn and are not compared.
        if (!identified) {
          identified = true;
          firstId = chunkId;
        } else if (chunkId !== firstId && (carriesContent(chunk) || carriesFinish(chunk))) {
          yield* broken(`sent a chunk of completion ${chunkId ?? '(no id)'} in the stream of ${firstId ?? '(no id)'}`);
          return;
        }
      }
      usage = mergeUsage(usage, chunk);
      const seen = new Set<number>();
      for (const [position, entry] of asArray(chunk.choices).entries()) {
        const choice = asRecord(entry);
        if (choice === undefined) continue;
        const index = choiceIndex(choice, position);
        if (seen.has(index)) {
          yield* broken(`sent choice ${index} twice in one chunk`);
          return;
        }
        seen.add(index);
        if (!choices.has(index) && choices.size >= MAX_CHOICES) {
          yield* broken(`sent more than ${MAX_CHOICES} choices`);
          return;
        }
        const stream = choiceFor(index).stream;
        yield* emit(index, stream.push(choice));
        if (stream.violation !== undefined) {
          yield* broken(stream.violation);
          return;
        }
      }
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    // A dropped body (or a bound passed) before `[DONE]`, after the finish reason too, or with half
    // an event after it: the turn is not whole. Its calls end invalid and the error ends it.
    yield* emit(0, primary.stream.finish(true, 'the stream broke off before it ended; no call of it may run'));
    yield {
      type: 'error',
      error: HttpFailure.isInstance(error)
        ? httpFailureError(error, streamContext)
        : transportError(
            `lost the connection mid-stream, ${ended === undefined ? 'before [DONE]' : 'inside an event after [DONE]'}`,
            error,
            { ...streamContext, kind: 'incomplete_stream' },
          ),
    };
    return;
  }
  if (context.signal?.aborted) throw context.signal.reason;
  if (!primary.stream.finished) {
    yield* emit(0, primary.stream.finish());
    yield {
      type: 'error',
      error: transportError('ended the stream before the model finished', undefined, {
        ...streamContext,
        kind: 'incomplete_stream',
      }),
    };
    return;
  }
  const all: LanguageModelV1Choice[] = [];
  for (const index of [...choices.keys()].sort((a, b) => a - b)) {
    const entry = choices.get(index) as { stream: ChoiceStream; fold: ChoiceFold };
    yield* emit(index, entry.stream.finish(ending !== 'done'));
    all.push(entry.fold.result(entry.stream, ending));
  }
  const answer = all.find((choice) => choice.index === 0) as LanguageModelV1Choice;
  yield {
    type: 'finish',
    finishReason: answer.finishReason,
    ...(answer.rawFinishReason === undefined ? {} : { rawFinishReason: answer.rawFinishReason }),
    ...(all.length > 1 ? { choices: all } : {}),
    usage,
  };
}
