import type { AgentEvent, AgentRun } from '@tiny/harness';
import { describeRunError, isCancellation, reportError } from '../run/describe-run-error.js';
import { issueApprovals } from '../run/paused-approvals.js';
import { type RunEnd, streamPrefix } from '../run/read-run.js';
import { StreamRedactor } from '../run/stream-redactor.js';
import { containsRedacted, displayArguments, hasSensitiveArguments } from '../run/tool-display.js';
import type { UIFinishReason, UIMessageChunk } from './ui-message-chunk.js';
import type { UIStreamOptions } from './ui-stream-options.js';

/** The finish reason of a run that ended without error. */
function finishReason(run: AgentRun): UIFinishReason {
  if (run.outcome === 'deferred') return 'tool-calls';
  return run.outcome === 'final' || run.outcome === 'return_direct' ? 'stop' : 'other';
}

/**
 * Writes the chunks of one run. Keeps every promise of the stream: each text/tool input started is
 * ended, ids match, `start` comes first and `finish` last, whatever the run does.
 */
export class UIChunkWriter {
  readonly out: UIMessageChunk[] = [];
  private readonly prefix = streamPrefix();
  private textCount = 0;
  private text: string | undefined;
  private step = false;
  /** Tool inputs started (`tool-input-start`) and not yet available or failed. */
  private readonly openInputs = new Map<string, string>();
  /** Calls with a tool part in this message (this stream's, or the continued message's). */
  private readonly parts = new Set<string>();
  /** Calls whose argument text is withheld (sensitive fields). */
  private readonly withheld = new Set<string>();
  /** Calls resumed from a pause: their part is already in the continued message. */
  private readonly continued = new Set<string>();
  /**
   * Calls whose part already ended (an output, a denial, or an input error: an unknown tool or
   * invalid arguments): a later result event for them (the error answer the model reads) adds nothing.
   */
  private readonly answered = new Set<string>();
  private failedText: string | undefined;

  constructor(private readonly options: UIStreamOptions) {
    this.redact = new StreamRedactor(options.secrets ?? []);
  }

  /** Scrubs payload (never the chunk's own fields) and makes it plain JSON. */
  private readonly redact: StreamRedactor;

  emit(chunk: UIMessageChunk): void {
    this.out.push(withCallIds(chunk, this.redact));
  }

  /** Shows model text (already scrubbed), opening a text part when there is something to show. */
  private textDelta(delta: string): void {
    if (delta === '') return;
    this.ensureStep();
    if (this.text === undefined) {
      this.text = `${this.prefix}-text-${this.textCount++}`;
      this.emit({ type: 'text-start', id: this.text });
    }
    this.emit({ type: 'text-delta', id: this.text, delta });
  }

  private closeText(): void {
    this.textDelta(this.redact.endText());
    if (this.text === undefined) return;
    this.emit({ type: 'text-end', id: this.text });
    this.text = undefined;
  }

  private ensureStep(): void {
    if (this.step) return;
    this.emit({ type: 'start-step' });
    this.step = true;
  }

  /** Ends what is open before a step boundary: text, and inputs that never became a call. */
  private closeStep(): void {
    this.closeText();
    for (const [callId, toolName] of this.openInputs) {
      this.emit({
        type: 'tool-input-error',
        toolCallId: callId,
        toolName,
        input: null,
        errorText: 'The call was not admitted under this id.',
      });
      this.parts.add(callId);
    }
    this.openInputs.clear();
    if (this.step) this.emit({ type: 'finish-step' });
    this.step = false;
  }

  /** A part for `callId` exists before an output chunk refers to it. */
  private ensurePart(callId: string, toolName: string, input: unknown = null): void {
    if (this.parts.has(callId) || this.continued.has(callId)) return;
    this.toolInput(callId, toolName, input);
  }

  private toolInput(callId: string, toolName: string, input: unknown): void {
    this.ensureStep();
    this.closeText();
    if (this.withheld.has(callId) || containsRedacted(input))
      this.emit({ type: 'data-tool-input-redacted', id: callId, data: { toolCallId: callId, toolName } });
    this.emit({ type: 'tool-input-available', toolCallId: callId, toolName, input: this.redact.payload(input) });
    this.openInputs.delete(callId);
    this.parts.add(callId);
  }

  private toolInputError(callId: string, toolName: string, input: unknown, errorText: string): void {
    this.ensureStep();
    this.closeText();
    if (this.parts.has(callId) || this.answered.has(callId)) return;
    this.emit({
      type: 'tool-input-error',
      toolCallId: callId,
      toolName,
      input: this.redact.payload(input),
      errorText: this.redact.text(errorText),
    });
    this.openInputs.delete(callId);
    this.parts.add(callId);
    this.answered.add(callId);
  }

  start(): void {
    this.emit(
      this.options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: this.options.messageId },
    );
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_started':
        this.closeStep();
        this.ensureStep();
        return;
      case 'model_started':
      case 'model_completed':
        this.closeText();
        return;
      case 'model_delta':
        if (event.delta === '') return;
        this.ensureStep();
        this.textDelta(this.redact.feedText(event.delta));
        return;
      case 'tool_call_delta': {
        if (this.parts.has(event.callId) || this.continued.has(event.callId)) return;
        if (!this.openInputs.has(event.callId)) {
          if (hasSensitiveArguments(this.options.tools, event.toolName)) this.withheld.add(event.callId);
          this.ensureStep();
          this.closeText();
          this.emit({ type: 'tool-input-start', toolCallId: event.callId, toolName: event.toolName });
          this.openInputs.set(event.callId, event.toolName);
        }
        // Raw argument text hides escaped or split values: with any secret, the input is shown only whole.
        if (this.redact.hasSecrets()) this.withheld.add(event.callId);
        if (!this.withheld.has(event.callId) && event.argumentsDelta !== '')
          this.emit({
            type: 'tool-input-delta',
            toolCallId: event.callId,
            inputTextDelta: this.redact.text(event.argumentsDelta),
          });
        return;
      }
      case 'tool_started':
        if (this.parts.has(event.callId) || this.continued.has(event.callId)) return;
        this.toolInput(event.callId, event.toolName, event.input);
        return;
      case 'tool_completed':
        if (this.answered.has(event.callId)) return;
        this.answered.add(event.callId);
        this.ensurePart(event.callId, event.toolName);
        if (event.error !== undefined)
          this.emit({ type: 'tool-output-error', toolCallId: event.callId, errorText: this.redact.text(event.error) });
        else
          this.emit({
            type: 'tool-output-available',
            toolCallId: event.callId,
            output: this.redact.payload(event.output),
          });
        return;
      case 'tool_failed':
        if (this.answered.has(event.callId)) return;
        this.answered.add(event.callId);
        this.ensurePart(event.callId, event.toolName);
        this.emit({ type: 'tool-output-error', toolCallId: event.callId, errorText: this.redact.text(event.error) });
        return;
      case 'tool_progress': {
        const { callId, message, fraction, partial } = event;
        this.closeText();
        this.emit({
          type: 'data-tool-progress',
          id: callId,
          data: {
            toolCallId: callId,
            message: this.redact.text(message),
            ...(fraction === undefined ? {} : { fraction }),
            ...(partial === undefined ? {} : { partial: this.redact.payload(partial) }),
          },
          ...(this.options.progress === 'transient' ? { transient: true } : {}),
        });
        return;
      }
      case 'custom':
        this.closeText();
        this.emit({
          type: 'data-tool-event',
          data: {
            ...(event.callId === undefined ? {} : { toolCallId: event.callId }),
            payload: this.redact.payload(event.payload),
          },
        });
        return;
      case 'unknown_tool_call':
        if (event.recovery === 'tool_error')
          // The name is the model's (no tool has it): scrubbed like any model text.
          this.toolInputError(
            event.callId,
            this.redact.text(event.requestedName),
            null,
            `Unknown tool "${event.requestedName}".`,
          );
        return;
      case 'invalid_tool_args':
        if (event.recovery === 'tool_error')
          this.toolInputError(event.callId, event.toolName, event.arguments, event.error);
        return;
      case 'tool_call_refused':
        this.toolInputError(
          event.callId,
          event.toolName,
          null,
          `Not run: the model turn that made this call ended with "${event.reason}".`,
        );
        return;
      case 'tool_approved':
        this.continued.add(event.callId);
        return;
      case 'tool_denied':
        if (this.answered.has(event.callId)) return;
        this.answered.add(event.callId);
        if (this.continued.has(event.callId) || this.parts.has(event.callId)) {
          // A resumed denial answers the approval request in the continued message.
          this.emit({ type: 'tool-output-denied', toolCallId: event.callId });
        } else {
          this.ensurePart(event.callId, event.toolName);
          this.emit({
            type: 'tool-output-error',
            toolCallId: event.callId,
            errorText: this.redact.text(event.message),
          });
        }
        return;
      case 'run_failed':
        this.failedText = event.error;
        return;
      default:
        return;
    }
  }

  /** A resumed run's decided calls (their parts are in the continued message). */
  continue(callIds: readonly string[]): void {
    for (const id of callIds) this.continued.add(id);
  }

  async end(end: RunEnd): Promise<void> {
    if (end.type === 'run_end') {
      const run = end.run;
      const issued = await issueApprovals(
        run,
        this.options.approvalStore,
        this.options.messageId,
        this.options.conversationId,
      );
      if (run.outcome === 'deferred') {
        // A call deferred again on resume (`needs_reapproval`) keeps its part in the continued message.
        for (const call of [...run.deferred.approvals, ...run.deferred.calls])
          if (!this.parts.has(call.callId) && !this.continued.has(call.callId))
            this.toolInput(
              call.callId,
              call.toolName,
              displayArguments(this.options.tools, call.toolName, call.arguments),
            );
        for (const approval of issued)
          this.emit({
            type: 'tool-approval-request',
            approvalId: approval.approvalId,
            toolCallId: approval.toolCallId,
          });
      }
      this.closeStep();
      this.emit({
        type: 'finish',
        finishReason: finishReason(run),
        messageMetadata: { runId: run.runId, outcome: run.outcome, usage: { ...run.usage } },
      });
      return;
    }
    this.closeStep();
    if (isCancellation(end.error)) {
      this.emit({ type: 'abort', reason: 'The run was cancelled.' });
      this.emit({ type: 'finish', finishReason: 'other' });
      return;
    }
    reportError(this.options.onError, end.error);
    const describe = this.options.errorText ?? describeRunError;
    this.emit({ type: 'error', errorText: this.redact.text(describe(end.error, this.failedText)) });
    this.emit({ type: 'finish', finishReason: 'error' });
  }
}

/** `chunk` with its call ids (`toolCallId`, a tool data part's `id` and `data.toolCallId`) as the stream shows them. */
function withCallIds(chunk: UIMessageChunk, redact: StreamRedactor): UIMessageChunk {
  const fields = chunk as { toolCallId?: unknown; type: string; id?: unknown; data?: { toolCallId?: unknown } };
  if (typeof fields.toolCallId === 'string')
    return { ...chunk, toolCallId: redact.callId(fields.toolCallId) } as UIMessageChunk;
  if (fields.type.startsWith('data-tool-') && typeof fields.id === 'string') {
    const data =
      typeof fields.data?.toolCallId === 'string'
        ? { ...fields.data, toolCallId: redact.callId(fields.data.toolCallId) }
        : fields.data;
    return { ...chunk, id: redact.callId(fields.id), data } as UIMessageChunk;
  }
  return chunk;
}
