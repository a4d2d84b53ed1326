import { createRefusedToolCall, type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { toModelCallError } from '../errors/to-model-call-error.js';
import { decodeToolInput } from '../response/decode-tool-input.js';
import { extraContentOf, mapFinishReason, mapUsage, signatureOf } from '../response/map-result-fields.js';
import { readRefusal } from '../response/read-refusal.js';

/** What the stream mapper needs. @internal */
export interface StreamContext {
  readonly provider: string;
  readonly secrets: readonly string[];
  readonly signal?: AbortSignal | undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Maps AI SDK stream parts to ours: `response-metadata` (before any content), `text-delta`,
 * `reasoning-delta` (a signature in the provider metadata of `reasoning-delta` or `reasoning-end`
 * as a `reasoning_delta` signature), `tool-input-start/delta` to `tool_call_start/delta`, and each
 * `tool-call` to `tool_call_end` with the input decoded through the invalid-call path (a call
 * announced only by `tool-call` gets its start first). Provider-executed calls and results, `raw`,
 * `ping`, sources and files are left out. A refusal the SDK exposes (see `readRefusal`) is sent as
 * one `refusal_delta` before the `finish` (the SDK reveals it only there; text already streamed
 * stays text). `error` parts and failures of the stream itself become `error` parts holding a
 * `ModelCallError`; a stream that ends without a `finish` part ends with a retryable
 * `ModelCallError` (an incomplete stream), after whatever was streamed.
 *
 * Every call started ends with a `tool_call_end`: one started by `tool-input-start` whose
 * `tool-call` never came before the finish (or the end) was cut off and ends refused with its raw
 * input text, never decoded into a runnable call. One `toolCallId` names one call: a second
 * `tool-input-start` or `tool-call` for an id already used is a `protocol_violation` error (not
 * retryable) after every call of the stream is ended invalid.
 *
 * @throws the signal's reason when the call is aborted (from the iteration).
 * @internal
 */
export async function* mapStream(
  reader: ReadableStreamDefaultReader<unknown>,
  first: readonly unknown[],
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  const started = new Set<string>();
  /** Calls ended by their `tool-call`, with the call sent. */
  const ended = new Set<string>();
  /** The input text streamed per started call, kept for a call cut off before its `tool-call`. */
  const inputs = new Map<string, { name: string; text: string }>();
  const providerExecuted = new Set<string>();
  /** Ends every started call that has no `tool-call` refused (never repaired or run) with `reason`. */
  const cutOff = function* (reason: string): Generator<LanguageModelV1StreamPart> {
    for (const id of started) {
      if (ended.has(id)) continue;
      ended.add(id);
      const input = inputs.get(id) ?? { name: '', text: '' };
      const call = createRefusedToolCall(id, input.name, input.text, `${reason}; raw arguments: ${input.text}`);
      yield { type: 'tool_call_end', id, call: { ...call, rawArguments: input.text } };
    }
  };
  /** Two calls under one id: every call ends refused, then the protocol error. */
  const duplicate = function* (id: string, name: string): Generator<LanguageModelV1StreamPart> {
    const reason = `the stream broke the protocol (tool call id ${id} named two calls); no call of it may run`;
    yield* cutOff(reason);
    // A second end with other content for an ended id makes collectStream hold every call invalid.
    yield { type: 'tool_call_end', id, call: createRefusedToolCall(id, name, '', reason) };
    yield {
      type: 'error',
      error: new ModelCallError({
        message: `${context.provider}: broke the stream protocol: tool call id ${id} named two calls`,
        kind: 'protocol_violation',
        provider: context.provider,
      }),
    };
  };
  let contentSeen = false;
  let metadataSent = false;
  let finished = false;
  let text = '';
  const pending = [...first];
  try {
    for (;;) {
      let value: unknown;
      if (pending.length > 0) {
        value = pending.shift();
      } else {
        const next = await reader.read();
        if (next.done) break;
        value = next.value;
      }
      if (context.signal?.aborted) throw context.signal.reason;
      const part = asRecord(value);
      if (part === undefined) continue;
      switch (part.type) {
        case 'response-metadata':
          if (!metadataSent && !contentSeen) {
            metadataSent = true;
            yield {
              type: 'response_metadata',
              ...(typeof part.id === 'string' ? { id: part.id } : {}),
              ...(typeof part.modelId === 'string' ? { modelId: part.modelId } : {}),
            };
          }
          break;
        case 'text-delta':
          if (typeof part.delta === 'string' && part.delta !== '') {
            contentSeen = true;
            text += part.delta;
            yield { type: 'text_delta', delta: part.delta };
          }
          break;
        case 'reasoning-delta':
        case 'reasoning-end': {
          const delta = typeof part.delta === 'string' ? part.delta : '';
          const signature = signatureOf(part.providerMetadata);
          if (delta === '' && signature === undefined) break;
          contentSeen = true;
          yield { type: 'reasoning_delta', delta, ...(signature === undefined ? {} : { signature }) };
          break;
        }
        case 'tool-input-start': {
          const id = String(part.id);
          if (part.providerExecuted === true) {
            providerExecuted.add(id);
            break;
          }
          contentSeen = true;
          if (started.has(id)) {
            finished = true;
            yield* duplicate(id, String(part.toolName));
            return;
          }
          started.add(id);
          inputs.set(id, { name: String(part.toolName), text: '' });
          yield { type: 'tool_call_start', id, name: String(part.toolName) };
          break;
        }
        case 'tool-input-delta': {
          const id = String(part.id);
          if (started.has(id) && !ended.has(id) && typeof part.delta === 'string' && part.delta !== '') {
            const input = inputs.get(id);
            if (input !== undefined) input.text += part.delta;
            yield { type: 'tool_call_delta', id, argumentsDelta: part.delta };
          }
          break;
        }
        case 'tool-call': {
          const id = String(part.toolCallId);
          if (part.providerExecuted === true || providerExecuted.has(id)) break;
          contentSeen = true;
          const name = String(part.toolName);
          if (ended.has(id)) {
            finished = true;
            yield* duplicate(id, name);
            return;
          }
          if (!started.has(id)) {
            started.add(id);
            yield { type: 'tool_call_start', id, name };
          }
          const call = decodeToolInput(id, name, part.input, 'stream', extraContentOf(part.providerMetadata));
          ended.add(id);
          yield { type: 'tool_call_end', id, call };
          break;
        }
        case 'finish': {
          finished = true;
          yield* cutOff('the stream finished before this tool call completed (no tool-call part): it was cut off');
          const finish = mapFinishReason(part.finishReason);
          const refusal = readRefusal({ ...finish, providerMetadata: part.providerMetadata, text });
          if (refusal !== undefined) yield { type: 'refusal_delta', delta: refusal };
          yield { type: 'finish', ...finish, usage: mapUsage(part.usage), body: part };
          return;
        }
        case 'error':
          yield* cutOff('the stream failed before this tool call completed (no tool-call part)');
          yield { type: 'error', error: toModelCallError(part.error, context.provider, context.secrets) };
          return;
        default:
          // stream-start (read before), text-start/end, reasoning-start, tool-input-end, raw,
          // ping, sources, files, provider-executed results
          break;
      }
    }
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    yield* cutOff('the stream failed before this tool call completed (no tool-call part)');
    yield { type: 'error', error: toModelCallError(error, context.provider, context.secrets) };
    return;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  if (!finished) {
    yield* cutOff('the stream ended before this tool call completed (no tool-call part)');
    yield {
      type: 'error',
      error: new ModelCallError({
        message: `${context.provider}: the stream ended without a finish part (incomplete stream)`,
        kind: 'incomplete_stream',
        provider: context.provider,
      }),
    };
  }
}
