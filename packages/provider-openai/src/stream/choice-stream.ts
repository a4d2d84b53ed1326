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
import { createEdgeTrimmer, type EdgeTrimmer, LEADING_LINE_BREAKS } from './create-edge-trimmer.js';
import { createThinkExtractor, type ThinkExtractor } from './create-think-extractor.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

/**
 * The parts of one streamed choice, kept apart from every other choice of the response: its own
 * `<think>` extractor, prompt-guided scrubber, tool-call assembler, reasoning trimmer and finish
 * reason. Choice `0`'s parts are the stream's; the others are folded into `choices`.
 * @internal
 */
export class ChoiceStream {
  readonly index: number;
  /** The last non-empty `finish_reason` seen for this choice. */
  rawFinishReason: string | undefined;
  private readonly context: ReadContext;
  private readonly think: ThinkExtractor | undefined;
  private readonly scrubber: StreamScrubber | undefined;
  private readonly assembler = new ToolCallAssembler();
  private readonly reasoning: EdgeTrimmer = createEdgeTrimmer();
  private fieldReasoning = false;
  private contentStarted = false;
  private textSequence: number | undefined;
  private textCalls = 0;

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

  /** Reads one wire choice of a chunk (`delta`, or a whole `message` from some proxies). */
  push(choice: Readonly<Record<string, unknown>>): LanguageModelV1StreamPart[] {
    const parts: LanguageModelV1StreamPart[] = [];
    const delta = asRecord(choice.delta) ?? asRecord(choice.message);
    const field = asString(delta?.reasoning_content) ?? asString(delta?.reasoning);
    const content = contentParts(delta?.content);
    const reasoning = (field ?? '') + content.reasoning;
    if (reasoning.trim() !== '') this.fieldReasoning = true;
    this.reason(reasoning, parts);
    const refusal = (asString(delta?.refusal) ?? '') + content.refusal;
    if (refusal !== '') parts.push({ type: 'refusal_delta', delta: refusal });
    let text = content.text;
    if (!this.contentStarted && this.fieldReasoning) text = text.replace(LEADING_LINE_BREAKS, '');
    if (text !== '') {
      this.contentStarted = true;
      this.content(text, parts);
    }
    for (const fragment of asArray(delta?.tool_calls)) parts.push(...this.assembler.push(fragment));
    this.rawFinishReason = readFinishReason(choice.finish_reason) ?? this.rawFinishReason;
    return parts;
  }

  /** Ends the choice: held text and reasoning released, every call ended. */
  finish(): LanguageModelV1StreamPart[] {
    const parts: LanguageModelV1StreamPart[] = [];
    if (this.think !== undefined) {
      const split = this.think.flush();
      this.reason(split.reasoning, parts);
      this.visible(split.text, false, parts);
    }
    this.visible('', true, parts);
    parts.push(...this.assembler.finish());
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

  result(choice: ChoiceStream): LanguageModelV1Choice {
    return {
      index: choice.index,
      content: this.text,
      ...(this.reasoning === '' ? {} : { reasoning: this.reasoning }),
      ...(this.refusal === '' ? {} : { refusal: this.refusal }),
      toolCalls: this.calls,
      finishReason: this.refusal === '' ? choice.finishReason(this.calls.length > 0) : 'content_filter',
      ...(choice.rawFinishReason === undefined ? {} : { rawFinishReason: choice.rawFinishReason }),
    };
  }
}
