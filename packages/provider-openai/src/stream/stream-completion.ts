import { createStreamScrubber, type LanguageModelV1StreamPart, type LanguageModelV1Usage } from '@tiny/llm';
import { errorFromBody, transportError } from '../errors/create-call-error.js';
import { mapFinishReason } from '../response/map-finish-reason.js';
import { mapUsage } from '../response/map-usage.js';
import { firstChoice } from '../response/parse-completion.js';
import { type ReadContext, textToolCall } from '../response/read-context.js';
import { asArray, asNonEmptyString, asRecord, asString, contentText } from '../wire/read-wire.js';
import { createThinkExtractor } from './create-think-extractor.js';
import { readSseEvents } from './read-sse-events.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

/** Cancellation for a stream. @internal */
export interface StreamContext extends ReadContext {
  readonly signal?: AbortSignal | undefined;
}

function parseJson(data: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(data) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Turns a chat-completions SSE body into stream parts (P2):
 * - `response_metadata` once, from the first chunk with an id or a model;
 * - `reasoning_content` / `reasoning` deltas as `reasoning_delta`; content deltas through the
 *   `<think>` extractor (when on), then, in prompt-guided mode, through `createStreamScrubber`:
 *   visible text as `text_delta` (never a partial call tag) and each completed call block as a
 *   `text-{seq}-{slot}` tool call;
 * - native `tool_calls` fragments through {@link ToolCallAssembler};
 * - at `[DONE]` or the end of the body: the calls ended in order, then one `finish` with the last
 *   `finish_reason` and the usage chunk.
 *
 * An error event or error object ends the stream with an `error` part carrying an
 * `OpenAICompatibleCallError`; so does a connection lost mid-stream, or a body that ends before
 * any `finish_reason` or `[DONE]` (both retryable). An abort throws the signal's reason.
 * @internal
 */
export async function* streamCompletion(
  body: ReadableStream<Uint8Array>,
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  const think = context.extractThinking ? createThinkExtractor() : undefined;
  const scrubber = context.textTools === undefined ? undefined : createStreamScrubber({ tools: context.textTools });
  const assembler = new ToolCallAssembler();
  let textSequence: number | undefined;
  let textCalls = 0;
  let metadataSent = false;
  let rawFinishReason: string | undefined;
  let usage: LanguageModelV1Usage = {};
  let done = false;

  function* visible(text: string, final: boolean): Generator<LanguageModelV1StreamPart> {
    if (scrubber === undefined) {
      if (text !== '') yield { type: 'text_delta', delta: text };
      return;
    }
    const released = final ? scrubber.flush() : scrubber.feed(text);
    if (released.text !== '') yield { type: 'text_delta', delta: released.text };
    for (const parsed of released.calls) {
      textSequence ??= context.nextTextSequence();
      const call = textToolCall(parsed, textSequence, textCalls++);
      yield { type: 'tool_call_start', id: call.id, name: call.name };
      yield { type: 'tool_call_delta', id: call.id, argumentsDelta: call.rawArguments ?? '' };
      yield { type: 'tool_call_end', id: call.id, call };
    }
  }

  function* content(text: string): Generator<LanguageModelV1StreamPart> {
    if (think === undefined) return yield* visible(text, false);
    const split = think.feed(text);
    if (split.reasoning !== '') yield { type: 'reasoning_delta', delta: split.reasoning };
    yield* visible(split.text, false);
  }

  try {
    for await (const event of readSseEvents(body)) {
      if (context.signal?.aborted) throw context.signal.reason;
      const data = event.data.trim();
      if (data === '[DONE]') {
        done = true;
        break;
      }
      if (data === '') continue;
      const parsed = parseJson(data);
      const chunk = parsed.ok ? asRecord(parsed.value) : undefined;
      if (event.event === 'error' || chunk === undefined || chunk.error !== undefined || chunk.object === 'error') {
        yield {
          type: 'error',
          error: errorFromBody(parsed.ok ? parsed.value : undefined, data, { ...context, where: 'stream' }),
        };
        return;
      }
      if (!metadataSent && (asNonEmptyString(chunk.id) !== undefined || asNonEmptyString(chunk.model) !== undefined)) {
        metadataSent = true;
        yield { type: 'response_metadata', id: asNonEmptyString(chunk.id), modelId: asNonEmptyString(chunk.model) };
      }
      if (asRecord(chunk.usage) !== undefined) usage = mapUsage(chunk.usage);
      const choice = firstChoice(chunk.choices);
      if (choice === undefined) continue;
      const delta = asRecord(choice.delta) ?? asRecord(choice.message);
      const reasoning = asString(delta?.reasoning_content) ?? asString(delta?.reasoning);
      if (reasoning !== undefined && reasoning !== '') yield { type: 'reasoning_delta', delta: reasoning };
      const text = contentText(delta?.content);
      if (text !== '') yield* content(text);
      for (const fragment of asArray(delta?.tool_calls)) yield* assembler.push(fragment);
      rawFinishReason = asNonEmptyString(choice.finish_reason) ?? rawFinishReason;
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    yield { type: 'error', error: transportError('lost the connection mid-stream', error, context) };
    return;
  }
  if (context.signal?.aborted) throw context.signal.reason;
  if (!done && rawFinishReason === undefined) {
    yield { type: 'error', error: transportError('ended the stream before the model finished', undefined, context) };
    return;
  }
  if (think !== undefined) {
    const split = think.flush();
    if (split.reasoning !== '') yield { type: 'reasoning_delta', delta: split.reasoning };
    yield* visible(split.text, false);
  }
  yield* visible('', true);
  yield* assembler.finish();
  yield {
    type: 'finish',
    finishReason: mapFinishReason(rawFinishReason, assembler.count + textCalls > 0),
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
    usage,
  };
}
