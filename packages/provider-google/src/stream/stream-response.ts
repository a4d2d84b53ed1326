import {
  createRefusedToolCall,
  type LanguageModelV1CallWarning,
  type LanguageModelV1StreamPart,
  type LanguageModelV1ToolCall,
} from '@tiny/llm';
import {
  asArray,
  asNonEmptyString,
  asRecord,
  asString,
  checkSseEvent,
  HttpFailure,
  type HttpLimits,
  readErrorEnvelope,
  readSseEvents,
  type SseEventNames,
} from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, httpFailureError, transportError } from '../errors/create-call-error.js';
import { appendPart, callRef, encodeReplayParts, replayPartOf, type WirePart } from '../request/replay-parts.js';
import { blockReasonOf, blockRefusal, isFirstCandidate } from '../response/block-reason.js';
import { repeatKey, repeatWarning } from '../response/drop-exact-repeats.js';
import { isNormalFinish, mapFinishReason } from '../response/map-finish-reason.js';
import { mapUsage } from '../response/map-usage.js';
import { MAX_PARTS, refusalOf } from '../response/parse-response.js';
import { callExtra, readFunctionCall } from '../response/read-function-call.js';
import { PartialArguments } from './assemble-partial-args.js';

/** What the stream reader needs. @internal */
export interface StreamContext extends ErrorContext {
  readonly signal?: AbortSignal | undefined;
  /** Size and time bounds on the stream (defaults of `HttpLimits` for those left out). */
  readonly limits?: HttpLimits | undefined;
  /** The call's warnings (the array its result returned): a dropped repeat adds one. */
  readonly warnings: LanguageModelV1CallWarning[];
}

/** A call of the stream: whole (one `functionCall` part) or assembled from streamed arguments. */
interface StreamCall {
  readonly id: string;
  readonly name: string;
  call?: LanguageModelV1ToolCall;
  partial?: { readonly wireId: string | undefined; signature: string | undefined; args: PartialArguments };
  /** Why it may not run, when its own parts already said (an unplaceable argument). */
  broken?: string;
}

class ProtocolViolation extends Error {}

/** Gemini's `alt=sse` stream sends unnamed `data:` events only: any other name breaks it. */
const GEMINI_EVENTS: SseEventNames = {};

/**
 * An event that is an error, not a response: Gemini's `{error: {code, message, status}}`, or an
 * error object of another server (llama.cpp's bare `{code, message, type}`) holding no response
 * field (`candidates`, `promptFeedback`, `usageMetadata`).
 */
function isErrorChunk(chunk: Readonly<Record<string, unknown>> | undefined): boolean {
  if (chunk === undefined) return false;
  if (chunk.error !== undefined && chunk.error !== null) return true;
  if (chunk.candidates !== undefined || chunk.promptFeedback !== undefined || chunk.usageMetadata !== undefined)
    return false;
  return readErrorEnvelope(chunk)?.message !== undefined;
}

/** A part that holds nothing: no field but `text: ""` (a call, data, a signature or any other field is content). */
function isEmptyPart(part: unknown): boolean {
  const record = asRecord(part);
  return record !== undefined && Object.keys(record).every((key) => key === 'text' && record.text === '');
}

function parseJson(data: string): { value: unknown } | { failure: unknown } {
  try {
    return { value: JSON.parse(data) as unknown };
  } catch (failure) {
    return { failure };
  }
}

/**
 * Reads a `streamGenerateContent?alt=sse` body into stream parts. Each event is a whole
 * `GenerateContentResponse`: text and thought parts stream as `text_delta` and `reasoning_delta`;
 * a `functionCall` part is a whole call (`tool_call_start` at once), or, with `willContinue`, a
 * call whose arguments follow as `partialArgs` until a part without `willContinue` (or an empty
 * `{}` part) closes it. Every call's `tool_call_end` waits for the end of the turn, so a call
 * never completes in a stream that then breaks; a whole call that repeats an earlier one exactly
 * is dropped with a warning in `context.warnings` (see `dropExactRepeats`). An event holding a
 * list of responses is read element by element, in order (a list inside it is `invalid_chunk`).
 * The turn ends normally only at a clean end of the body after a `finishReason`; after it, only
 * parts whose one field is `text: ""` and usage may come: any other content, a second finish
 * reason, an unreadable event, an event named `error` (whatever its data, none included: the event
 * name is read first), an event under any other name (Gemini names none; see `checkSseEvent`), a
 * size or time bound passed, or a read failure breaks the turn (an error, every call
 * refused), except a drop exactly at an event boundary. After the finish reason the body gets
 * `STREAM_END_GRACE_MS` (1 s) more to end: a server keeping it open ends the turn normally (the
 * body is cancelled); what arrives within the grace is still checked, and half an event left at
 * its end breaks the turn. Without a finish reason the end (or a drop) is a retryable
 * `incomplete_stream` error, every call invalid; a `[DONE]` before the finish reason is a
 * `protocol_violation` (the server ended the stream). A streamed call's continuation part carrying anything but `partialArgs` (`args`, say)
 * refuses the call; the signature of a streamed call's later part goes on the call when its first
 * part had none, else stays in its place as a signature-only part.
 *
 * A second response spliced in (a `responseId` or `modelVersion` that changes), a candidate other
 * than index 0, a second call under one API id, arguments for no open call, a call begun while
 * another is open, or content after the finish reason is a non-retryable `protocol_violation`:
 * every call of the stream ends invalid.
 * @internal
 */
export async function* streamResponse(
  body: ReadableStream<Uint8Array>,
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  let responseId: string | undefined;
  let modelVersion: string | undefined;
  let metadataSent = false;
  let finishRaw: string | undefined;
  /** The `promptFeedback.blockReason` of any chunk: the turn is a content filter finish, no call runs. */
  let blockRaw: string | undefined;
  let usage: unknown;
  let lastChunk: unknown;
  let partCount = 0;
  const kept: WirePart[] = [];
  const calls: StreamCall[] = [];
  const wireIds = new Set<string>();
  const seen = new Map<string, LanguageModelV1ToolCall>();
  let open: StreamCall | undefined;
  let done = false;
  /** The parse failure of the latest event, while no later event has said whether it was cut or bad. */
  let unreadable: unknown;

  /** Ends every call: refused (`createRefusedToolCall`, never repaired) with `reason` when given (a broken stream), or unless the turn finished with STOP. */
  const endCalls = function* (reason?: string): Generator<LanguageModelV1StreamPart> {
    const refuse =
      reason ??
      (blockRaw !== undefined ? blockRefusal(blockRaw) : isNormalFinish(finishRaw) ? undefined : refusalOf(finishRaw));
    const ended: LanguageModelV1ToolCall[] = [];
    for (const entry of calls) {
      let call: LanguageModelV1ToolCall;
      if (entry.partial !== undefined) {
        const raw = JSON.stringify(entry.partial.args.root);
        const why =
          refuse ??
          entry.broken ??
          (entry === open ? 'the stream ended with its streamed arguments still open' : undefined);
        const extra = callExtra(entry.partial.wireId, entry.partial.signature);
        const base: LanguageModelV1ToolCall =
          why === undefined
            ? { id: entry.id, name: entry.name, arguments: entry.partial.args.root, rawArguments: raw }
            : createRefusedToolCall(
                entry.id,
                entry.name,
                raw,
                `stream contained an unusable call \`${entry.id}\` (\`${entry.name}\`): ${why}`,
              );
        call = extra === undefined ? base : { ...base, extraContent: extra };
      } else {
        const whole = entry.call as LanguageModelV1ToolCall;
        call =
          refuse === undefined || whole.refused === true
            ? whole
            : {
                ...createRefusedToolCall(
                  whole.id,
                  whole.name,
                  typeof whole.arguments === 'string' ? whole.arguments : JSON.stringify(whole.arguments),
                  `stream contained an unusable call \`${whole.id}\` (\`${whole.name}\`): ${refuse}`,
                ),
                ...(whole.extraContent === undefined ? {} : { extraContent: whole.extraContent }),
              };
      }
      ended.push(call);
    }
    for (const call of ended) yield { type: 'tool_call_end', id: call.id, call };
    calls.length = 0;
  };

  const signaturePart = function* (): Generator<LanguageModelV1StreamPart> {
    const signature = encodeReplayParts(kept);
    if (signature !== undefined) yield { type: 'reasoning_delta', delta: '', signature };
  };

  const finishTurn = function* (): Generator<LanguageModelV1StreamPart> {
    // A call still open, or one whose streamed arguments could not all be placed, breaks the turn:
    // its argument text may parse, and an invalid call alone the harness may repair and run.
    const cut = open !== undefined || calls.some((entry) => entry.broken !== undefined);
    const hadCalls = calls.length > 0;
    yield* signaturePart();
    yield* endCalls();
    done = true;
    yield {
      type: 'finish',
      finishReason: blockRaw !== undefined ? 'content_filter' : cut ? 'error' : mapFinishReason(finishRaw, hadCalls),
      ...((blockRaw ?? finishRaw) === undefined ? {} : { rawFinishReason: blockRaw ?? finishRaw }),
      usage: mapUsage(usage),
      body: lastChunk,
    };
  };

  const fail = function* (error: unknown, reason: string): Generator<LanguageModelV1StreamPart> {
    yield* endCalls(reason);
    done = true;
    yield { type: 'error', error };
  };

  /** The latest call whose arguments stream: a closing `{}` part after it closed belongs to it. */
  let lastStreamed: StreamCall | undefined;
  /**
   * Keeps the signature of a streamed call's later part: on the call when its first part had none
   * (the call part is replayed with it), else as a signature-only part in its place, in order.
   */
  const keepSignature = (entry: StreamCall | undefined, signature: string | undefined): void => {
    if (signature === undefined) return;
    if (entry?.partial !== undefined && entry.partial.signature === undefined) entry.partial.signature = signature;
    else kept.push({ thoughtSignature: signature });
  };

  const readCall = function* (part: Readonly<Record<string, unknown>>): Generator<LanguageModelV1StreamPart> {
    const fc = asRecord(part.functionCall) ?? {};
    const name = asNonEmptyString(fc.name);
    const wireId = asNonEmptyString(fc.id);
    const continues = fc.willContinue === true;
    if (name === undefined) {
      const partSignature = asNonEmptyString(part.thoughtSignature);
      const closing =
        fc.partialArgs === undefined && Object.keys(fc).filter((key) => key !== 'willContinue').length === 0;
      if (closing) {
        // `{}` closes the open call (or follows one a part without willContinue already closed)
        keepSignature(open ?? lastStreamed, partSignature);
        if (!continues) open = undefined;
        return;
      }
      if (open?.partial === undefined) throw new ProtocolViolation('sent arguments for a call that was not open');
      keepSignature(open, partSignature);
      // a continuation carries only partialArgs (and willContinue, and the call's own id): `args`
      // or any other field there is a call this reader cannot place, so the call is refused
      const stray = Object.keys(fc).filter(
        (key) => key !== 'partialArgs' && key !== 'willContinue' && !(key === 'id' && fc.id === open?.partial?.wireId),
      );
      if (stray.length > 0)
        open.broken ??= `a continuation part carrying ${stray.map((key) => `\`${key}\``).join(', ')}`;
      const problem = open.partial.args.apply(fc.partialArgs);
      if (problem !== undefined) open.broken ??= problem;
      if (!continues) open = undefined;
      return;
    }
    if (open !== undefined) throw new ProtocolViolation(`began call \`${name}\` while call \`${open.id}\` was open`);
    if (wireId !== undefined) {
      if (wireIds.has(wireId)) throw new ProtocolViolation(`sent a second call under id \`${wireId}\``);
      wireIds.add(wireId);
    }
    const id = wireId ?? `${name}_${calls.length}`;
    if (calls.some((entry) => entry.id === id)) throw new ProtocolViolation(`sent a second call under id \`${id}\``);
    // A call whose arguments stream (`partialArgs`, or `willContinue` without `args`); without
    // `willContinue` its one part holds them all and closes it.
    if (fc.args !== undefined && fc.partialArgs !== undefined)
      throw new ProtocolViolation(`sent call \`${name}\` with both args and partialArgs`);
    const streamed = fc.args === undefined && (continues || fc.partialArgs !== undefined);
    const whole = streamed ? undefined : readFunctionCall(part, id, 'stream');
    const key = whole === undefined ? undefined : repeatKey(whole);
    if (key !== undefined) {
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        context.warnings.push(repeatWarning(earlier));
        // the copy is not replayed as a call (one result answers it), but its signature is, where it stood
        const copySignature = asNonEmptyString(part.thoughtSignature);
        if (copySignature !== undefined) kept.push({ thoughtSignature: copySignature });
        return;
      }
      seen.set(key, whole as LanguageModelV1ToolCall);
    }
    const signature = asNonEmptyString(part.thoughtSignature);
    const extra = callExtra(wireId, signature);
    yield { type: 'tool_call_start', id, name, ...(extra === undefined ? {} : { extraContent: extra }) };
    kept.push(callRef(id));
    if (streamed) {
      const entry: StreamCall = { id, name, partial: { wireId, signature, args: new PartialArguments() } };
      const problem = entry.partial?.args.apply(fc.partialArgs);
      if (problem !== undefined) entry.broken = problem;
      calls.push(entry);
      lastStreamed = entry;
      if (continues) open = entry;
    } else {
      calls.push({ id, name, call: whole as LanguageModelV1ToolCall });
    }
  };

  /** Reads one response object of an event; throws `ProtocolViolation` for a broken one. */
  const readChunk = function* (
    chunk: Readonly<Record<string, unknown>> | undefined,
  ): Generator<LanguageModelV1StreamPart> {
    const id = asNonEmptyString(chunk?.responseId);
    const model = asNonEmptyString(chunk?.modelVersion);
    if (id !== undefined && responseId !== undefined && id !== responseId)
      throw new ProtocolViolation(`spliced a second response into the stream (responseId ${id} after ${responseId})`);
    if (model !== undefined && modelVersion !== undefined && model !== modelVersion)
      throw new ProtocolViolation(`switched models mid-stream (${modelVersion}, then ${model})`);
    responseId ??= id;
    modelVersion ??= model;
    if (!metadataSent && (id !== undefined || model !== undefined)) {
      metadataSent = true;
      yield {
        type: 'response_metadata',
        ...(id === undefined ? {} : { id }),
        ...(model === undefined ? {} : { modelId: model }),
      };
    }
    if (chunk?.usageMetadata !== undefined) usage = chunk.usageMetadata;
    const candidates = asArray(chunk?.candidates);
    const blockReason = blockReasonOf(chunk);
    if (blockReason !== undefined) blockRaw ??= blockReason;
    if (candidates.length === 0) {
      if (blockReason !== undefined && finishRaw === undefined) finishRaw = blockReason;
      return;
    }
    if (candidates.length > 1)
      throw new ProtocolViolation(`sent ${candidates.length} candidates in one event; only candidate 0 was asked for`);
    for (const value of candidates) {
      const candidate = asRecord(value);
      if (!isFirstCandidate(candidate))
        throw new ProtocolViolation(
          `sent candidate ${JSON.stringify(candidate?.index ?? null)}; only candidate 0 was asked for`,
        );
      const parts = asArray(asRecord(candidate?.content)?.parts);
      if (finishRaw !== undefined) {
        // after the finish only empty parts may come: a part is empty only when its one field is `text: ""`
        if (!parts.every(isEmptyPart)) throw new ProtocolViolation(`sent content after the finish reason ${finishRaw}`);
        if (candidate?.finishReason !== undefined && candidate.finishReason !== null)
          throw new ProtocolViolation(
            `sent a second finish reason (${JSON.stringify(candidate.finishReason)}) after ${finishRaw}`,
          );
      }
      partCount += parts.length;
      if (partCount > MAX_PARTS) throw new ProtocolViolation(`sent more than ${MAX_PARTS} parts`);
      for (const item of parts) {
        const part = asRecord(item);
        if (part === undefined) continue;
        if (part.functionCall !== undefined) {
          yield* readCall(part);
          continue;
        }
        const text = asString(part.text);
        if (text === undefined) {
          // a signature alone, or code: kept for replay in its place
          const other = replayPartOf(part);
          if (other === undefined) continue;
          kept.push(other);
          continue;
        }
        if (text === '' && part.thoughtSignature === undefined) continue;
        if (open !== undefined) throw new ProtocolViolation(`sent text while call \`${open.id}\` was open`);
        if (text !== '') yield { type: part.thought === true ? 'reasoning_delta' : 'text_delta', delta: text };
        appendPart(kept, part);
      }
      const reason = candidate?.finishReason;
      if (reason !== undefined && reason !== null)
        finishRaw = typeof reason === 'string' ? reason : JSON.stringify(reason);
    }
  };

  /** Fails the turn for an event that is not a readable response. */
  const badChunk = (what: string, cause: unknown) =>
    fail(
      transportError(what, cause, { ...context, kind: 'invalid_chunk_json' }),
      'the stream sent an event that is not a readable response',
    );

  try {
    // After the finish reason the body gets STREAM_END_GRACE_MS to end (a server keeping it open ends the turn normally).
    const isEnded = () => finishRaw !== undefined;
    for await (const event of readSseEvents(body, { limits: context.limits, isEnded })) {
      if (context.signal?.aborted) throw context.signal.reason;
      const data = event.data.trim();
      // the event's name decides first: an `error` event is an error whatever its data holds (none
      // included), and a name Gemini does not send breaks the stream, after the finish too
      const check = checkSseEvent(event, GEMINI_EVENTS);
      if (check.verdict === 'error') {
        const parsed = data === '' ? undefined : parseJson(event.data);
        const value = parsed !== undefined && 'value' in parsed ? parsed.value : undefined;
        yield* fail(errorFromEvent(value, event.data, context), 'the stream reported an error');
        return;
      }
      if (check.verdict === 'violation') {
        yield* fail(
          transportError(`broke the protocol: ${check.reason}`, undefined, { ...context, kind: 'protocol_violation' }),
          `the stream broke the protocol (${check.reason})`,
        );
        return;
      }
      if (data === '[DONE]' && finishRaw === undefined) {
        // `[DONE]` (which Gemini never sends) says the server ended the stream: before the finish
        // reason the turn was cut short.
        yield* fail(
          transportError('broke the protocol: sent [DONE] before the finish reason', undefined, {
            ...context,
            kind: 'protocol_violation',
          }),
          'the stream broke the protocol (sent [DONE] before the finish reason)',
        );
        return;
      }
      if (data === '' || data === '[DONE]') continue;
      if (unreadable !== undefined) {
        // an event that was not JSON, and the stream went on: a bad chunk, not a cut one
        yield* badChunk('sent a stream event that is not JSON', unreadable);
        return;
      }
      const parsed = parseJson(event.data);
      if ('failure' in parsed) {
        // The last event of a body cut mid-event is not JSON either: what follows (or the finish) decides.
        unreadable = parsed.failure;
        continue;
      }
      lastChunk = parsed.value;
      // an event holding a list of responses is read element by element, in order
      const elements: readonly unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      for (const element of elements) {
        const chunk = asRecord(element);
        if (chunk === undefined) {
          yield* badChunk(
            `sent a stream event holding ${Array.isArray(element) ? 'a nested list' : 'a value that is not a response object'}`,
            undefined,
          );
          return;
        }
        if (isErrorChunk(chunk)) {
          yield* fail(errorFromEvent(element, event.data, context), 'the stream reported an error');
          return;
        }
        try {
          yield* readChunk(chunk);
        } catch (error) {
          if (!(error instanceof ProtocolViolation)) throw error;
          yield* fail(
            transportError(`broke the protocol: ${error.message}`, undefined, {
              ...context,
              kind: 'protocol_violation',
            }),
            `the stream broke the protocol (${error.message})`,
          );
          return;
        }
      }
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (done) return;
    // a bound passed or a read failure breaks the turn, after the finish too: only a clean end of
    // the body at an event boundary ends a turn normally
    yield* fail(
      HttpFailure.isInstance(error)
        ? httpFailureError(error, context)
        : transportError(
            `lost the connection mid-stream, ${finishRaw === undefined ? 'before' : 'after'} the model finished`,
            error,
            {
              ...context,
              kind: 'incomplete_stream',
            },
          ),
      'the stream broke off before the model finished',
    );
    return;
  }
  if (context.signal?.aborted) throw context.signal.reason;
  if (done) return;
  if (finishRaw !== undefined && unreadable !== undefined) {
    // an unreadable event after the finish: the turn is broken, not finished
    yield* badChunk('sent a stream event that is not JSON after the model finished', unreadable);
    return;
  }
  if (finishRaw !== undefined) {
    yield* finishTurn();
    return;
  }
  yield* fail(
    transportError(
      unreadable === undefined
        ? 'ended the stream before the model finished (no finishReason)'
        : 'ended the stream inside an event, before the model finished',
      unreadable,
      { ...context, kind: 'incomplete_stream' },
    ),
    'the stream ended before the model finished',
  );
}
