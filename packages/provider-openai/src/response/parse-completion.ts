import {
  type LanguageModelV1Choice,
  type LanguageModelV1FinishReason,
  type LanguageModelV1ToolCall,
  type LanguageModelV1Usage,
  parseToolCalls,
} from '@tiny/llm';
import { asArray, asNonEmptyString, asNumber, asRecord, asString, refuseRepeatedIds } from '@tiny/provider-utils';
import { errorFromBody, transportError } from '../errors/create-call-error.js';
import { extractThinking } from '../stream/create-think-extractor.js';
import { MAX_STREAM_TOOL_CALLS } from '../stream/tool-call-assembler.js';
import { contentParts } from '../wire/read-wire.js';
import { decodeToolCall } from './decode-tool-call.js';
import { mapFinishReason, readFinishReason } from './map-finish-reason.js';
import { mapUsage } from './map-usage.js';
import { type ReadContext, textToolCall } from './read-context.js';

/** The model's answer read from a chat-completion body. @internal */
export interface Completion {
  readonly id?: string | undefined;
  readonly modelId?: string | undefined;
  readonly content: string;
  readonly reasoning?: string | undefined;
  readonly refusal?: string | undefined;
  readonly toolCalls: readonly LanguageModelV1ToolCall[];
  readonly finishReason: LanguageModelV1FinishReason;
  readonly rawFinishReason?: string | undefined;
  /** Every choice, when the body held more than one. */
  readonly choices?: readonly LanguageModelV1Choice[] | undefined;
  readonly usage: LanguageModelV1Usage;
}

/** The most choices one response may hold (OpenAI's largest `n`); more is a flood, not an answer. @internal */
export const MAX_CHOICES = 128;

/** The index of a wire choice; a choice without one counts as its position. @internal */
export function choiceIndex(choice: unknown, position: number): number {
  return asNumber(asRecord(choice)?.index) ?? position;
}

/** One choice's message as the wire parts it is made of (whole, or assembled from a stream). @internal */
export interface WireMessage {
  readonly content: unknown;
  readonly reasoning?: string | undefined;
  readonly refusal?: string | undefined;
  readonly toolCalls: readonly LanguageModelV1ToolCall[];
  readonly rawFinishReason?: string | undefined;
}

/**
 * Reads one choice: text and reasoning from `content` (string or parts, Mistral `thinking` parts
 * being reasoning), `reasoning_content` / `reasoning`, and a leading `<think>` block when
 * extraction is on (that block trimmed at both ends); the text and reasoning fields kept byte for
 * byte (leading line breaks after a reasoning field included); the refusal (`refusal` field or part), which makes the finish `content_filter`;
 * tool calls, in prompt-guided mode read from the text. @internal
 */
export function readChoice(index: number, message: WireMessage, context: ReadContext): LanguageModelV1Choice {
  const parts = contentParts(message.content);
  // Reasoning fields and the text are the model's own: kept byte for byte. Only a `<think>` block
  // pulled out of the text loses the whitespace around its tags.
  let reasoning = (message.reasoning ?? '') + parts.reasoning;
  let content = parts.text;
  if (context.extractThinking) {
    const split = extractThinking(content);
    content = split.text;
    reasoning += split.reasoning.trim();
  }
  if (reasoning.trim() === '') reasoning = '';
  let toolCalls = message.toolCalls;
  if (toolCalls.length === 0 && context.textTools !== undefined) {
    const parsed = parseToolCalls(content, { tools: context.textTools, toolCallFormats: context.toolCallFormats });
    if (parsed.calls.length > 0) {
      const seq = context.nextTextSequence();
      toolCalls = parsed.calls.map((call, slot) => textToolCall(call, seq, slot));
      content = parsed.text;
    }
  }
  const refusal = (message.refusal ?? '') + parts.refusal;
  const rawFinishReason = message.rawFinishReason;
  const finishReason = refusal !== '' ? 'content_filter' : mapFinishReason(rawFinishReason, toolCalls.length > 0);
  return {
    index,
    content,
    ...(reasoning === '' ? {} : { reasoning }),
    ...(refusal === '' ? {} : { refusal }),
    toolCalls,
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
  };
}

/**
 * Maps the wire `tool_calls` of a whole message. A call without an id gets a minted one,
 * `tool-{index}` (`-{position}` appended when that is taken). Two calls under one wire id refuse
 * every call of the message (`refuseRepeatedIds`): which call a result answers would be ambiguous,
 * as in a stream and in every other adapter. @internal
 */
export function nativeCalls(value: unknown): LanguageModelV1ToolCall[] {
  const entries = asArray(value);
  const used = new Set<string>();
  for (const entry of entries) {
    const wireId = asNonEmptyString(asRecord(entry)?.id);
    if (wireId !== undefined) used.add(wireId);
  }
  const calls = entries.flatMap((entry, position) => {
    const record = asRecord(entry);
    if (record === undefined) return [];
    const fn = asRecord(record.function);
    let id = asNonEmptyString(record.id);
    if (id === undefined) {
      id = `tool-${asNumber(record.index) ?? position}`;
      if (used.has(id)) id = `${id}-${position}`;
      used.add(id);
    }
    const extra = record.extra_content;
    return [
      decodeToolCall(
        {
          id,
          name: asString(fn?.name) ?? '',
          arguments: fn?.arguments,
          ...(extra === undefined || extra === null
            ? {}
            : { extraContent: extra as LanguageModelV1ToolCall['extraContent'] }),
        },
        'response',
      ),
    ];
  });
  return [...refuseRepeatedIds(calls)];
}

/**
 * Reads a (non-streamed) chat-completion body: choice `0` (the one with `index: 0`, never merely
 * the first listed) as the answer, read by {@link readChoice}; every choice as `choices` when
 * there are several; the finish reason and usage. A refusal is `refusal` (not content), with
 * finish reason `content_filter`.
 *
 * @throws {OpenAICompatibleCallError} when the body is an error object (some servers answer 200
 *   with one) or not a completion at all; of kind `protocol_violation` when it holds more than
 *   `MAX_CHOICES` (128) choices, two choices of one index (which would be the answer is unknown)
 *   or more than 256 tool calls in a choice.
 * @internal
 */
export function parseCompletion(body: unknown, raw: string, context: ReadContext): Completion {
  const record = asRecord(body);
  if (record === undefined || record.error !== undefined || record.object === 'error') {
    throw errorFromBody(body, raw, { ...context, where: 'response' });
  }
  const list = asArray(record.choices);
  // `{}` (or a body without choices) is no completion: an invalid response, never an empty answer.
  if (list.length === 0)
    throw transportError('answered with no completion (the body has no choices)', undefined, {
      ...context,
      kind: 'invalid_response',
    });
  const violation = (what: string) =>
    transportError(`broke the protocol: ${what}`, undefined, {
      ...context,
      kind: 'protocol_violation',
    });
  if (list.length > MAX_CHOICES) throw violation(`sent more than ${MAX_CHOICES} choices`);
  const indices = new Set<number>();
  for (const [position, entry] of list.entries()) {
    const index = choiceIndex(entry, position);
    if (indices.has(index)) throw violation(`sent two choices with index ${index}`);
    indices.add(index);
    if (asArray(asRecord(asRecord(entry)?.message)?.tool_calls).length > MAX_STREAM_TOOL_CALLS)
      throw violation(`sent more than ${MAX_STREAM_TOOL_CALLS} tool calls in choice ${index}`);
  }
  const read = list
    .map((entry, position) => {
      const choice = asRecord(entry);
      const message = asRecord(choice?.message);
      return readChoice(
        choiceIndex(entry, position),
        {
          content: message?.content,
          reasoning: asString(message?.reasoning_content) ?? asString(message?.reasoning),
          refusal: asString(message?.refusal),
          toolCalls: nativeCalls(message?.tool_calls),
          rawFinishReason: readFinishReason(choice?.finish_reason),
        },
        context,
      );
    })
    .sort((a, b) => a.index - b.index);
  const primary = read.find((choice) => choice.index === 0) ?? read[0];
  const { index: _index, ...answer } = primary ?? {
    index: 0,
    content: '',
    toolCalls: [],
    finishReason: 'other' as const,
  };
  return {
    ...(asNonEmptyString(record.id) === undefined ? {} : { id: asNonEmptyString(record.id) }),
    ...(asNonEmptyString(record.model) === undefined ? {} : { modelId: asNonEmptyString(record.model) }),
    ...answer,
    ...(read.length > 1 ? { choices: read } : {}),
    usage: mapUsage(record.usage),
  };
}
