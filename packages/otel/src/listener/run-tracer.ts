import { type Attributes, type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTRIBUTES, ERROR_TYPES, OPERATIONS } from '../semconv/attributes.js';
import { contentAttribute } from './content.js';
import type { ResolvedOtelListenerOptions } from './otel-listener-options.js';

interface OpenSpan {
  readonly span: Span;
  readonly context: Context;
  readonly startMs: number;
}

interface OpenModelSpan extends OpenSpan {
  readonly text: string[];
}

interface PendingEvent {
  readonly name: string;
  readonly attributes: Attributes;
  readonly time: number;
}

/**
 * The spans of one run: the `invoke_agent` span, its open `chat` and `execute_tool` spans, and
 * call-scoped span events that arrived before their tool span started.
 * @internal
 */
export class RunTracer {
  readonly run: OpenSpan;
  private readonly options: ResolvedOtelListenerOptions;
  private readonly models = new Map<string, OpenModelSpan>();
  private readonly tools = new Map<string, OpenSpan>();
  private readonly pending = new Map<string, PendingEvent[]>();
  /** Why the call's answer is an error, when the harness recovered it (by call id). */
  private readonly recoveries = new Map<string, string>();
  private inputTokens = 0;
  /** Cache-read input tokens summed over chat spans; undefined until a provider reports them. */
  private cachedInputTokens: number | undefined;
  /** `prompt_prefix_changed` waiting for its chat span, by model call id. */
  private readonly prefixChanges = new Map<string, { attributes: Attributes; time: number }>();
  private outputTokens = 0;
  private sawTokens = false;
  private turns = 0;
  private failure: string | undefined;

  constructor(options: ResolvedOtelListenerOptions, runId: string) {
    this.options = options;
    const startMs = options.now();
    const name = options.agentName === undefined ? OPERATIONS.invokeAgent : `invoke_agent ${options.agentName}`;
    const parent = options.parentContext ?? context.active();
    const span = options.tracer.startSpan(
      name,
      {
        kind: SpanKind.INTERNAL,
        startTime: startMs,
        attributes: this.common(OPERATIONS.invokeAgent, {
          [ATTRIBUTES.agentName]: options.agentName,
          [ATTRIBUTES.runId]: runId,
        }),
      },
      parent,
    );
    this.run = { span, context: trace.setSpan(parent, span), startMs };
  }

  /** Captured content, or nothing when capture is off or the value is absent. */
  content(key: string, value: unknown): Attributes {
    const text = this.captured(value);
    return text === undefined ? {} : { [key]: text };
  }

  /** The value as captured text, or undefined when capture is off or the value is absent. */
  captured(value: unknown): string | undefined {
    if (!this.options.captureContent || value === undefined) return undefined;
    return contentAttribute(value, this.options.maxContentLength);
  }

  turnStarted(turn: number): void {
    this.turns = Math.max(this.turns, turn);
    this.runEvent('tiny.turn_started', { [ATTRIBUTES.turn]: turn });
  }

  runEvent(name: string, attributes: Attributes): void {
    this.run.span.addEvent(name, attributes, this.options.now());
  }

  runAttributes(attributes: Attributes): void {
    this.run.span.setAttributes(attributes);
  }

  noteFailure(errorType: string): void {
    this.failure ??= errorType;
  }

  /** A prefix change for a model call about to start: a span event on its chat span when it opens. */
  prefixChanged(modelCallId: string, attributes: Attributes): void {
    this.prefixChanges.set(modelCallId, { attributes, time: this.options.now() });
  }

  modelStarted(modelCallId: string, turn: number, prefixFingerprint?: string): void {
    const startMs = this.options.now();
    const { modelName } = this.options;
    const span = this.options.tracer.startSpan(
      modelName === undefined ? OPERATIONS.chat : `chat ${modelName}`,
      {
        kind: SpanKind.CLIENT,
        startTime: startMs,
        attributes: this.common(OPERATIONS.chat, {
          [ATTRIBUTES.turn]: turn,
          [ATTRIBUTES.modelCallId]: modelCallId,
          ...(prefixFingerprint === undefined ? {} : { [ATTRIBUTES.promptPrefixFingerprint]: prefixFingerprint }),
        }),
      },
      this.run.context,
    );
    const change = this.prefixChanges.get(modelCallId);
    if (change !== undefined) {
      this.prefixChanges.delete(modelCallId);
      span.addEvent('tiny.prompt_prefix_changed', change.attributes, change.time);
    }
    this.models.set(modelCallId, { span, context: trace.setSpan(this.run.context, span), startMs, text: [] });
  }

  modelDelta(modelCallId: string, delta: string): void {
    if (this.options.captureContent) this.models.get(modelCallId)?.text.push(delta);
  }

  modelEvent(modelCallId: string, name: string, attributes: Attributes): void {
    const open = this.models.get(modelCallId);
    (open?.span ?? this.run.span).addEvent(name, attributes, this.options.now());
  }

  modelCompleted(
    modelCallId: string,
    finishReason: string,
    toolCallCount: number,
    inputTokens: number | undefined,
    outputTokens: number | undefined,
    cachedInputTokens?: number | undefined,
  ): void {
    const open = this.models.get(modelCallId);
    if (open === undefined) return;
    this.models.delete(modelCallId);
    const attributes: Attributes = {
      [ATTRIBUTES.finishReasons]: [finishReason],
      [ATTRIBUTES.toolCallCount]: toolCallCount,
    };
    if (inputTokens !== undefined) attributes[ATTRIBUTES.inputTokens] = inputTokens;
    if (outputTokens !== undefined) attributes[ATTRIBUTES.outputTokens] = outputTokens;
    if (cachedInputTokens !== undefined) {
      attributes[ATTRIBUTES.cacheReadInputTokens] = cachedInputTokens;
      this.cachedInputTokens = (this.cachedInputTokens ?? 0) + cachedInputTokens;
    }
    if (inputTokens !== undefined || outputTokens !== undefined) this.sawTokens = true;
    this.inputTokens += inputTokens ?? 0;
    this.outputTokens += outputTokens ?? 0;
    if (open.text.length > 0) {
      const message = {
        role: 'assistant',
        parts: [{ type: 'text', content: open.text.join('') }],
        finish_reason: finishReason,
      };
      Object.assign(attributes, this.content(ATTRIBUTES.outputMessages, [message]));
    }
    open.span.setAttributes(attributes);
    open.span.end(Math.max(open.startMs, this.options.now()));
  }

  toolStarted(callId: string, toolName: string, parentCallId: string | undefined, input: unknown, at?: number): void {
    if (this.tools.has(callId)) return;
    const parent = (parentCallId === undefined ? undefined : this.tools.get(parentCallId)) ?? this.run;
    const startMs = at ?? this.options.now();
    const attributes = this.common(OPERATIONS.executeTool, {
      [ATTRIBUTES.toolName]: toolName,
      [ATTRIBUTES.toolType]: 'function',
      [ATTRIBUTES.toolCallId]: callId,
      [ATTRIBUTES.parentCallId]: parentCallId,
      ...this.content(ATTRIBUTES.toolCallArguments, input),
    });
    // Only the chat spans name the model; a tool span describes the tool.
    delete attributes[ATTRIBUTES.requestModel];
    const span = this.options.tracer.startSpan(
      `execute_tool ${toolName}`,
      { kind: SpanKind.INTERNAL, startTime: startMs, attributes },
      parent.context,
    );
    this.tools.set(callId, { span, context: trace.setSpan(parent.context, span), startMs });
    for (const event of this.pending.get(callId) ?? []) span.addEvent(event.name, event.attributes, event.time);
    this.pending.delete(callId);
  }

  /** Adds an event to the call's span, or holds it until the span starts (or the run ends). */
  callEvent(callId: string, name: string, attributes: Attributes): void {
    const time = this.options.now();
    const full = { [ATTRIBUTES.toolCallId]: callId, ...attributes };
    const open = this.tools.get(callId);
    if (open !== undefined) open.span.addEvent(name, full, time);
    else this.pending.set(callId, [...(this.pending.get(callId) ?? []), { name, attributes: full, time }]);
  }

  noteRecovery(callId: string, errorType: string): void {
    this.recoveries.set(callId, errorType);
  }

  toolEnded(
    callId: string,
    toolName: string,
    parentCallId: string | undefined,
    startedAtMs: number,
    durationMs: number,
    outcome: {
      readonly errorType?: string | undefined;
      readonly message?: string | undefined;
      readonly attributes: Attributes;
    },
  ): void {
    if (!this.tools.has(callId)) this.toolStarted(callId, toolName, parentCallId, undefined, startedAtMs);
    const open = this.tools.get(callId) as OpenSpan;
    this.tools.delete(callId);
    open.span.setAttributes(outcome.attributes);
    if (outcome.errorType !== undefined) {
      const errorType = this.recoveries.get(callId) ?? outcome.errorType;
      open.span.setAttribute(ATTRIBUTES.errorType, errorType);
      open.span.setStatus(
        outcome.message === undefined
          ? { code: SpanStatusCode.ERROR }
          : { code: SpanStatusCode.ERROR, message: outcome.message },
      );
    }
    this.recoveries.delete(callId);
    open.span.end(Math.max(open.startMs, startedAtMs + durationMs));
  }

  /** Ends every open span and the run span: `error` set means the run failed. */
  finish(attributes: Attributes, error?: string): void {
    const end = this.options.now();
    const errorType = error === undefined ? undefined : (this.failure ?? ERROR_TYPES.other);
    for (const open of [...this.tools.values()].reverse().concat([...this.models.values()])) {
      open.span.setAttribute(ATTRIBUTES.errorType, errorType ?? ERROR_TYPES.other);
      open.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the run ended before this span did' });
      open.span.end(Math.max(open.startMs, end));
    }
    this.tools.clear();
    this.models.clear();
    for (const events of this.pending.values()) {
      for (const event of events) this.run.span.addEvent(event.name, event.attributes, event.time);
    }
    this.pending.clear();
    const summary: Attributes = { ...attributes, [ATTRIBUTES.runTurns]: this.turns };
    if (this.sawTokens) {
      summary[ATTRIBUTES.inputTokens] = this.inputTokens;
      summary[ATTRIBUTES.outputTokens] = this.outputTokens;
    }
    if (this.cachedInputTokens !== undefined) {
      summary[ATTRIBUTES.cacheReadInputTokens] = this.cachedInputTokens;
      if (this.inputTokens > 0)
        summary[ATTRIBUTES.cacheHitRatio] = Math.min(1, this.cachedInputTokens / this.inputTokens);
    }
    this.run.span.setAttributes(summary);
    if (errorType !== undefined) {
      this.run.span.setAttribute(ATTRIBUTES.errorType, errorType);
      this.run.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    this.run.span.end(Math.max(this.run.startMs, end));
  }

  private common(operation: string, extra: Attributes): Attributes {
    const attributes: Attributes = { [ATTRIBUTES.operationName]: operation };
    if (this.options.provider !== undefined) attributes[ATTRIBUTES.providerName] = this.options.provider;
    if (this.options.modelName !== undefined) attributes[ATTRIBUTES.requestModel] = this.options.modelName;
    for (const [key, value] of Object.entries(extra)) if (value !== undefined) attributes[key] = value;
    return attributes;
  }
}
