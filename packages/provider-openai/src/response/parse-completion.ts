import {
  type LanguageModelV1FinishReason,
  type LanguageModelV1ToolCall,
  type LanguageModelV1Usage,
  parseToolCalls,
} from '@tiny/llm';
import { errorFromBody } from '../errors/create-call-error.js';
import { extractThinking } from '../stream/create-think-extractor.js';
import { asArray, asNonEmptyString, asNumber, asRecord, asString, contentText } from '../wire/read-wire.js';
import { decodeToolCall } from './decode-tool-call.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapUsage } from './map-usage.js';
import { type ReadContext, textToolCall } from './read-context.js';

/** The model's answer read from a chat-completion body. @internal */
export interface Completion {
  readonly id?: string | undefined;
  readonly modelId?: string | undefined;
  readonly content: string;
  readonly reasoning?: string | undefined;
  readonly toolCalls: readonly LanguageModelV1ToolCall[];
  readonly finishReason: LanguageModelV1FinishReason;
  readonly rawFinishReason?: string | undefined;
  readonly usage: LanguageModelV1Usage;
}

/** The first choice (the one with `index` 0 when servers number them). @internal */
export function firstChoice(choices: unknown): Record<string, unknown> | undefined {
  const list = asArray(choices);
  const numbered = list.find((choice) => asNumber(asRecord(choice)?.index) === 0);
  return asRecord(numbered ?? list[0]);
}

/** Maps the wire `tool_calls` of a whole message, minting `tool-{index}` ids and keeping ids unique. */
function nativeCalls(value: unknown): LanguageModelV1ToolCall[] {
  const used = new Set<string>();
  return asArray(value).flatMap((entry, position) => {
    const record = asRecord(entry);
    if (record === undefined) return [];
    const fn = asRecord(record.function);
    let id = asNonEmptyString(record.id) ?? `tool-${asNumber(record.index) ?? position}`;
    if (used.has(id)) id = `${id}-${position}`;
    used.add(id);
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
}

/**
 * Reads a (non-streamed) chat-completion body: the first choice's content (a string or text
 * parts), reasoning from `reasoning_content` or `reasoning` plus a leading `<think>` block when
 * extraction is on, tool calls (native with P1 leniency; in prompt-guided mode read from the text
 * with `parseToolCalls`, the narrative becoming the content), a `refusal` as the content with
 * finish reason `content_filter`, the finish reason and usage.
 *
 * @throws {OpenAICompatibleCallError} when the body is an error object (some servers answer 200
 *   with one) or not a completion at all.
 * @internal
 */
export function parseCompletion(body: unknown, raw: string, context: ReadContext): Completion {
  const record = asRecord(body);
  if (record === undefined || record.error !== undefined || record.object === 'error') {
    throw errorFromBody(body, raw, { ...context, where: 'response' });
  }
  const choice = firstChoice(record.choices);
  const message = asRecord(choice?.message);
  let content = contentText(message?.content);
  let reasoning = asString(message?.reasoning_content) ?? asString(message?.reasoning) ?? '';
  if (context.extractThinking) {
    const split = extractThinking(content);
    content = split.text;
    reasoning += split.reasoning;
  }
  let toolCalls = nativeCalls(message?.tool_calls);
  if (toolCalls.length === 0 && context.textTools !== undefined) {
    const parsed = parseToolCalls(content, { tools: context.textTools });
    if (parsed.calls.length > 0) {
      const seq = context.nextTextSequence();
      toolCalls = parsed.calls.map((call, slot) => textToolCall(call, seq, slot));
      content = parsed.text;
    }
  }
  const rawFinishReason = asNonEmptyString(choice?.finish_reason);
  let finishReason = mapFinishReason(rawFinishReason, toolCalls.length > 0);
  const refusal = asNonEmptyString(message?.refusal);
  if (refusal !== undefined && content === '') {
    content = refusal;
    finishReason = 'content_filter';
  }
  return {
    ...(asNonEmptyString(record.id) === undefined ? {} : { id: asNonEmptyString(record.id) }),
    ...(asNonEmptyString(record.model) === undefined ? {} : { modelId: asNonEmptyString(record.model) }),
    content,
    ...(reasoning === '' ? {} : { reasoning }),
    toolCalls,
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
    usage: mapUsage(record.usage),
  };
}
