import type { JsonValue } from '@tiny/tools';
import { ModelCallError } from '../errors/model-call-error.js';
import type { LanguageModelV1FinishReason } from './finish-reason.js';
import type {
  LanguageModelV1Choice,
  LanguageModelV1Response,
  LanguageModelV1StreamResult,
  LanguageModelV1ToolCall,
} from './language-model-v1.js';
import type { LanguageModelV1StreamPart } from './stream-part.js';
import { createInvalidToolCall, createRefusedToolCall } from './tool-call.js';
import type { LanguageModelV1Usage } from './usage.js';

interface PendingCall {
  readonly id: string;
  name: string;
  extraContent: JsonValue | undefined;
  pieces: string[];
  done: LanguageModelV1ToolCall | undefined;
}

/** The reason a call left without its `tool_call_end` carries: it may be cut off, so it never runs. */
const CALL_NEVER_ENDED =
  'the stream ended before this tool call ended (no tool_call_end): its arguments may be cut off';

/** What {@link collectStreamSettled} returns: the response so far, and the error that ended it, if any. */
export interface SettledStream {
  /**
   * Everything the stream delivered: the whole response, or, after an `error` part, the partial
   * one (text, reasoning, refusal and calls received so far; the finish reason and usage when a
   * `finish` arrived before the error, else `error` and empty usage).
   */
  readonly response: LanguageModelV1Response;
  /** The error of the first `error` part, as a `ModelCallError`; absent when the stream finished. */
  readonly error?: ModelCallError | undefined;
}

/**
 * Folds a stream into the response `doGenerate` would have returned.
 * - Text, reasoning and refusal deltas concatenate in order.
 * - Tool calls keep the order of their first part; argument pieces concatenate per call id. At
 *   `tool_call_end` the text is decoded: blank text means no arguments (`{}`), a JSON object is
 *   the arguments, anything else gives an invalid call keeping the raw text and the reason. A
 *   `call` carried by `tool_call_end` is used as is. A call started (or given pieces) but never
 *   ended by a `tool_call_end` when the stream stops is invalid (no tool_call_end): it may
 *   be cut off, so it is never decoded into a runnable call. Every adapter ends each call it
 *   starts with a `tool_call_end`.
 * - One id names one call: a `tool_call_start` for an id already ended, a start naming another
 *   tool for an open id, argument text for an id already ended, or a second `tool_call_end` with
 *   other content for an id is a protocol
 *   violation: reading stops, every call of the stream is invalid (none is silently dropped or
 *   replaced) and the response is `error` with `rawFinishReason: 'protocol_violation: ...'`.
 * - The first `finish` part is final: it sets the finish reason, usage and choices. After it only
 *   `response_metadata`, an `error` part or a repeat of the same finish (ignored) may come; a text,
 *   reasoning, refusal or tool-call part, or a finish with another reason, ends reading and makes
 *   the response `error` with `rawFinishReason: 'protocol_violation: ...'` naming the part (the
 *   part itself is not folded in), so a non-normal finish is never upgraded and a call that
 *   arrives after the stream said it was done never runs. A stream without a finish ends as
 *   `error` with empty usage and `rawFinishReason: 'missing'`: a stream that stopped before saying
 *   why (a dropped connection mid-call) is not a normal end, so a harness refuses its calls (they
 *   may be cut off) instead of repairing and running them.
 *
 * @throws {ModelCallError} at the first `error` part (the part's error itself when it already is
 *   one). Errors thrown by the iteration itself, such as an abort, pass through unchanged. Use
 *   {@link collectStreamSettled} to keep what arrived before the error.
 */
export async function collectStream(
  source: LanguageModelV1StreamResult | AsyncIterable<LanguageModelV1StreamPart>,
): Promise<LanguageModelV1Response> {
  const settled = await collectStreamSettled(source);
  if (settled.error !== undefined) throw settled.error;
  return settled.response;
}

/**
 * {@link collectStream} that keeps what arrived before an `error` part: reading stops at the first
 * `error` part and the partial response is returned with the error attached, instead of the error
 * being thrown and the output discarded.
 *
 * @throws only what the iteration itself throws (an abort's reason, say).
 */
export async function collectStreamSettled(
  source: LanguageModelV1StreamResult | AsyncIterable<LanguageModelV1StreamPart>,
): Promise<SettledStream> {
  const result = 'stream' in source ? source : undefined;
  const stream = result ? result.stream : (source as AsyncIterable<LanguageModelV1StreamPart>);
  const text: string[] = [];
  const reasoning: string[] = [];
  const signature: string[] = [];
  const refusal: string[] = [];
  let choices: readonly LanguageModelV1Choice[] | undefined;
  let failure: ModelCallError | undefined;
  const calls = new Map<string, PendingCall>();
  let id: string | undefined;
  let modelId: string | undefined;
  // No `finish` part means the stream broke off: `error`, never a normal end.
  let finishReason: LanguageModelV1FinishReason = 'error';
  let rawFinishReason: string | undefined = 'missing';
  let usage: LanguageModelV1Usage = {};
  let body: unknown;

  const pending = (callId: string): PendingCall => {
    let call = calls.get(callId);
    if (!call) {
      call = { id: callId, name: '', extraContent: undefined, pieces: [], done: undefined };
      calls.set(callId, call);
    }
    return call;
  };

  // The first `finish` is final: what follows it may only be metadata or the same finish again.
  let finished: LanguageModelV1FinishReason | undefined;
  const broken = (why: string) => {
    finishReason = 'error';
    rawFinishReason = why;
    choices = undefined;
  };
  /** Set when an id named two calls: every call of the stream ends invalid with it. */
  let duplicate: string | undefined;

  reading: for await (const part of stream) {
    if (finished !== undefined && part.type !== 'response_metadata' && part.type !== 'error') {
      if (part.type !== 'finish') {
        broken(`protocol_violation: a \`${part.type}\` part after the \`${finished}\` finish`);
        break;
      }
      if (part.finishReason !== finished) {
        broken(`protocol_violation: a second finish \`${part.finishReason}\` after the \`${finished}\` finish`);
        break;
      }
      continue;
    }
    switch (part.type) {
      case 'response_metadata':
        id = part.id ?? id;
        modelId = part.modelId ?? modelId;
        break;
      case 'text_delta':
        text.push(part.delta);
        break;
      case 'reasoning_delta':
        reasoning.push(part.delta);
        if (part.signature !== undefined) signature.push(part.signature);
        break;
      case 'refusal_delta':
        refusal.push(part.delta);
        break;
      case 'tool_call_start': {
        const known = calls.get(part.id);
        if (
          known !== undefined &&
          (known.done !== undefined || (part.name !== '' && known.name !== '' && part.name !== known.name))
        ) {
          duplicate = `protocol_violation: tool call id \`${part.id}\` names two calls in one stream`;
          broken(duplicate);
          break reading;
        }
        const call = pending(part.id);
        if (part.name !== '') call.name = part.name;
        if (part.extraContent !== undefined) call.extraContent = part.extraContent;
        break;
      }
      case 'tool_call_delta': {
        const call = pending(part.id);
        // Argument text after the call's end would be dropped while the call ran with what came
        // before: the stream broke its protocol, so none of its calls may run.
        if (call.done !== undefined && part.argumentsDelta !== '') {
          duplicate = `protocol_violation: argument text for tool call id \`${part.id}\` after its tool_call_end`;
          broken(duplicate);
          break reading;
        }
        call.pieces.push(part.argumentsDelta);
        break;
      }
      case 'tool_call_end': {
        const call = pending(part.id);
        const done = part.call ?? decodeCall(call);
        if (call.done !== undefined) {
          if (sameCall(call.done, done)) break;
          duplicate = `protocol_violation: tool call id \`${part.id}\` ended twice with different content`;
          broken(duplicate);
          break reading;
        }
        call.done = done;
        break;
      }
      case 'finish':
        finished = part.finishReason;
        finishReason = part.finishReason;
        rawFinishReason = part.rawFinishReason;
        usage = part.usage;
        body = part.body;
        choices = part.choices;
        break;
      case 'error':
        failure = toModelCallError(part.error);
        break reading;
    }
  }

  const toolCalls = [...calls.values()].map((call) => {
    const done = call.done ?? neverEnded(call);
    // Every call of the stream is refused, an unreadable one too: none may be repaired into a run.
    if (duplicate === undefined || done.refused === true) return done;
    const raw =
      done.rawArguments ?? (typeof done.arguments === 'string' ? done.arguments : JSON.stringify(done.arguments));
    return { ...createRefusedToolCall(done.id, done.name, raw, duplicate), rawArguments: raw };
  });
  const response: LanguageModelV1Response = {
    ...(id === undefined ? {} : { id }),
    ...(modelId === undefined ? {} : { modelId }),
    content: text.join(''),
    ...(reasoning.length === 0 ? {} : { reasoning: reasoning.join('') }),
    ...(signature.length === 0 ? {} : { reasoningSignature: signature.join('') }),
    ...(refusal.length === 0 ? {} : { refusal: refusal.join('') }),
    toolCalls,
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
    ...(choices === undefined ? {} : { choices }),
    usage,
    warnings: result?.warnings ?? [],
    ...(result?.request === undefined ? {} : { request: result.request }),
    ...(result?.response === undefined && body === undefined ? {} : { response: { ...result?.response, body } }),
  };
  return failure === undefined ? { response } : { response, error: failure };
}

/** A call the stream never ended: refused with its raw text, never decoded or repaired into a runnable call. */
function neverEnded(call: PendingCall): LanguageModelV1ToolCall {
  const raw = call.pieces.join('');
  const extra = call.extraContent === undefined ? {} : { extraContent: call.extraContent };
  const reason = `${CALL_NEVER_ENDED}; raw arguments: ${raw}`;
  return { ...createRefusedToolCall(call.id, call.name, raw, reason), rawArguments: raw, ...extra };
}

function sameCall(a: LanguageModelV1ToolCall, b: LanguageModelV1ToolCall): boolean {
  return (
    a.name === b.name &&
    a.invalid === b.invalid &&
    a.refused === b.refused &&
    JSON.stringify(a.arguments) === JSON.stringify(b.arguments) &&
    (a.rawArguments ?? '') === (b.rawArguments ?? '')
  );
}

function decodeCall(call: PendingCall): LanguageModelV1ToolCall {
  const raw = call.pieces.join('');
  const extra = call.extraContent === undefined ? {} : { extraContent: call.extraContent };
  if (raw.trim() === '') return { id: call.id, name: call.name, arguments: {}, rawArguments: raw, ...extra };
  let detail: string;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { id: call.id, name: call.name, arguments: value, rawArguments: raw, ...extra };
    }
    detail = 'the arguments are not a JSON object';
  } catch (error) {
    detail = error instanceof Error ? error.message : String(error);
  }
  const reason = `stream contained invalid JSON arguments for tool call \`${call.id}\` (\`${call.name}\`): ${detail}; raw arguments: ${raw}`;
  return { ...createInvalidToolCall(call.id, call.name, raw, reason), rawArguments: raw, ...extra };
}

function toModelCallError(error: unknown): ModelCallError {
  // tiny's marker is trusted on a real Error only: a plain object carrying it is wrapped like any other.
  if (ModelCallError.isInstance(error) && error instanceof Error) return error;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
  return new ModelCallError({ message: `the model stream reported an error: ${message}`, cause: error });
}
