import {
  createStreamScrubber,
  type LanguageModelV1Choice,
  type LanguageModelV1StreamPart,
  type LanguageModelV1ToolCall,
  type StreamScrubber,
} from '@tiny/llm';
import { asArray, asRecord, asString } from '@tiny/provider-utils';
import { mapFinishReason, readFinishReason } from '../response/map-finish-reason.js';
import { type ReadContext, textToolCall } from '../response/read-context.js';
import { contentParts } from '../wire/read-wire.js';
import { createEdgeTrimmer, type EdgeTrimmer } from './create-edge-trimmer.js';
import { createThinkExtractor, type ThinkExtractor } from './create-think-extractor.js';
import { MAX_STREAM_TOOL_CALLS, ToolCallAssembler } from './tool-call-assembler.js';

/** True for a wire value that carries something (an empty string, an empty list or `null` is nothing). */
const filled = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/** True for a delta that carries anything a turn is made of (an empty string or `null` is nothing). */
function hasContent(delta: Readonly<Record<string, unknown>> | undefined): boolean {
  if (delta === undefined) return false;
  return ['content', 'reasoning_content', 'reasoning', 'refusal', 'tool_calls', 'function_call'].some((key) =>
    filled(delta[key]),
  );
}

/**
 * The parts of one streamed choice, kept apart from every other choice of the response: its own
 * `<think>` extractor, prompt-guided scrubber, tool-call assembler, reasoning trimmer and finish
 * reason. Choice `0`'s parts are the stream's; the others are folded into `choices`.
 * @internal
 */
export class ChoiceStream {
  readonly index: number;
  /**
   * The `finish_reason` of this choice: the one sent. A second one (the same one included) is a
   * protocol violation (see `violation`): which one ends the turn is not known.
   */
  rawFinishReason: string | undefined;
  /** Why the stream broke the protocol for this choice (content after its finish, a call flood). */
  violation: string | undefined;
  private readonly context: ReadContext;
  private readonly think: ThinkExtractor | undefined;
  private readonly scrubber: StreamScrubber | undefined;
  private readonly assembler = new ToolCallAssembler();
  private readonly reasoning: EdgeTrimmer = createEdgeTrimmer();
  private textSequence: number | undefined;
  private textCalls = 0;
  /** Content (text, reasoning, refusal, calls) has arrived for this choice. */
  private contentSeen = false;
  /** A chunk of this choice came without a role: the server sends it only at the start. */
  private roleOmitted = false;

  constructor(index: number, context: ReadContext) {
    this.index = index;
    this.context = context;
    this.think = context.extractThinking ? createThinkExtractor() : undefined;
    this.scrubber =
      context.textTools === undefined
        ? undefined
        : createStreamScrubber({ tools: context.textTools, toolCallFormats: context.toolCallFormats });
  }

  /** True once a `finish_reason` arrived for this choice. */
  get finished(): boolean {
    return this.rawFinishReason !== undefined;
  }

  /**
   * Reads one wire choice of a chunk (`delta`, or a whole `message` from some proxies). Content
   * (text, reasoning, refusal, tool-call fragments) after the choice's finish reason is a protocol
   * violation: it is dropped and {@link ChoiceStream.violation} set. So is a choice carrying both
   * a `delta` and a `message` with content (which one is the turn is ambiguous), and a legacy
   * `function_call` field (never read in a stream: a call that could not be read must not vanish).
   */
  push(choice: Readonly<Record<string, unknown>>): LanguageModelV1StreamPart[] {
    const parts: LanguageModelV1StreamPart[] = [];
    const message = asRecord(choice.message);
    if (asRecord(choice.delta) !== undefined && hasContent(message)) {
      this.violation ??= `sent both a delta and a message with content for choice ${this.index}`;
      return parts;
    }
    const delta = asRecord(choice.delta) ?? message;
    if (filled(delta?.function_call)) {
      this.violation ??= `sent a legacy function_call for choice ${this.index} (not read in a stream)`;
      return parts;
    }
    if (this.finished && hasContent(delta)) {
      this.violation ??= `sent content for choice ${this.index} after its finish reason (${this.rawFinishReason})`;
      return parts;
    }
    // A role marker restarts a message: after content, from a server that has shown it sends the
    // role only at the start (a chunk of this choice came without one), it is a second message
    // spliced in. Servers that repeat the role on every chunk (Ollama) never restart this way.
    const role = asString(delta?.role);
    if (role !== undefined && role !== '') {
      if (this.contentSeen && this.roleOmitted) {
        this.violation ??= `restarted choice ${this.index} (a second role chunk after content)`;
        return parts;
      }
    } else if (delta !== undefined) this.roleOmitted = true;
    if (hasContent(delta)) this.contentSeen = true;
    const field = asString(delta?.reasoning_content) ?? asString(delta?.reasoning);
    const content = contentParts(delta?.content);
    // Reasoning from a field or a reasoning part is the model's text: passed on byte for byte.
    const reasoning = (field ?? '') + content.reasoning;
    if (reasoning !== '') parts.push({ type: 'reasoning_delta', delta: reasoning });
    const refusal = (asString(delta?.refusal) ?? '') + content.refusal;
    if (refusal !== '') parts.push({ type: 'refusal_delta', delta: refusal });
    // The text keeps its leading line breaks after a reasoning field too: model text is never trimmed.
    const text = content.text;
    if (text !== '') this.content(text, parts);
    for (const fragment of asArray(delta?.tool_calls)) parts.push(...this.assembler.push(fragment));
    if (this.assembler.overflow)
      this.violation ??= `opened more than ${MAX_STREAM_TOOL_CALLS} tool calls in choice ${this.index}`;
    if (this.assembler.violation !== undefined) this.violation ??= this.assembler.violation;
    const reason = readFinishReason(choice.finish_reason);
    if (reason !== undefined && this.rawFinishReason !== undefined)
      this.violation ??= `sent a second finish reason (${reason.slice(0, 40)}) for choice ${this.index} after ${this.rawFinishReason.slice(0, 40)}`;
    else if (reason !== undefined) this.rawFinishReason = reason;
    return parts;
  }

  /**
   * Ends the choice: held text and reasoning released, every call ended. With `strict` (the
   * stream was cut off after the finish reason) cut-off call arguments are not repaired; with
   * `refuse` (the stream broke its protocol) every call is invalid with that reason.
   */
  finish(strict = false, refuse?: string): LanguageModelV1StreamPart[] {
    const parts: LanguageModelV1StreamPart[] = [];
    if (this.think !== undefined) {
      const split = this.think.flush();
      this.reason(split.reasoning, parts);
      this.visible(split.text, false, parts);
    }
    this.visible('', true, parts);
    parts.push(...this.assembler.finish(strict, refuse));
    return parts;
  }

  /** The finish reason, given whether any call was made. */
  finishReason(hasToolCalls: boolean) {
    return mapFinishReason(this.rawFinishReason, hasToolCalls || this.assembler.count + this.textCalls > 0);
  }

  private reason(text: string, parts: LanguageModelV1StreamPart[]): void {
    const released = this.reasoning.feed(text);
    if (released !== '') parts.push({ type: 'reasoning_delta', delta: released });
  }

  private content(text: string, parts: LanguageModelV1StreamPart[]): void {
    if (this.think === undefined) {
      this.visible(text, false, parts);
      return;
    }
    const split = this.think.feed(text);
    this.reason(split.reasoning, parts);
    this.visible(split.text, false, parts);
  }

  private visible(text: string, final: boolean, parts: LanguageModelV1StreamPart[]): void {
    if (this.scrubber === undefined) {
      if (text !== '') parts.push({ type: 'text_delta', delta: text });
      return;
    }
    const released = final ? this.scrubber.flush() : this.scrubber.feed(text);
    if (released.text !== '') parts.push({ type: 'text_delta', delta: released.text });
    for (const parsed of released.calls) {
      this.textSequence ??= this.context.nextTextSequence();
      const call = textToolCall(parsed, this.textSequence, this.textCalls++);
      parts.push({ type: 'tool_call_start', id: call.id, name: call.name });
      parts.push({ type: 'tool_call_delta', id: call.id, argumentsDelta: call.rawArguments ?? '' });
      parts.push({ type: 'tool_call_end', id: call.id, call });
    }
  }
}

/** How a stream ended once its finish reason had arrived. @internal */
export type StreamEnding = 'done' | 'eof' | 'failed';

/** Folds one choice's parts into a {@link LanguageModelV1Choice}. @internal */
export class ChoiceFold {
  private text = '';
  private reasoning = '';
  private refusal = '';
  private readonly calls: LanguageModelV1ToolCall[] = [];

  add(part: LanguageModelV1StreamPart): void {
    if (part.type === 'text_delta') this.text += part.delta;
    else if (part.type === 'reasoning_delta') this.reasoning += part.delta;
    else if (part.type === 'refusal_delta') this.refusal += part.delta;
    else if (part.type === 'tool_call_end' && part.call !== undefined) this.calls.push(part.call);
  }

  /**
   * The folded choice, given how the stream ended after its finish reason: `done` (`[DONE]`),
   * `eof` (the body ended without it: a call whose arguments are invalid then was cut off, and
   * the finish is `error`) or `failed` (an error, a non-JSON event or a dropped connection after
   * the finish: a finish with tool calls is `error`).
   */
  result(choice: ChoiceStream, ending: StreamEnding = 'done'): LanguageModelV1Choice {
    const mapped = this.refusal === '' ? choice.finishReason(this.calls.length > 0) : 'content_filter';
    const broken =
      this.calls.length > 0 &&
      (ending === 'failed' || (ending === 'eof' && this.calls.some((call) => call.invalid !== undefined)));
    const finishReason = broken ? 'error' : mapped;
    return {
      index: choice.index,
      content: this.text,
      ...(this.reasoning === '' ? {} : { reasoning: this.reasoning }),
      ...(this.refusal === '' ? {} : { refusal: this.refusal }),
      toolCalls: this.calls,
      finishReason,
      ...(choice.rawFinishReason === undefined ? {} : { rawFinishReason: choice.rawFinishReason }),
    };
  }
}
