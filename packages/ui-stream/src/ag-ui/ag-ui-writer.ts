import type { AgentEvent, AgentRun } from '@tiny/harness';
import { describeRunError, isCancellation, reportError } from '../run/describe-run-error.js';
import { issueApprovals } from '../run/paused-approvals.js';
import { type RunEnd, randomId, streamPrefix } from '../run/read-run.js';
import { StreamRedactor } from '../run/stream-redactor.js';
import { displayArguments } from '../run/tool-display.js';
import type { AgUiEvent, AgUiInterrupt, AgUiTokenUsage } from './ag-ui-event.js';
import type { AgUiStreamOptions } from './ag-ui-stream-options.js';

function usageOf(run: AgentRun): AgUiTokenUsage[] {
  const entries = Object.entries(run.usage).filter(([, value]) => typeof value === 'number');
  return entries.length === 0 ? [] : [Object.fromEntries(entries) as AgUiTokenUsage];
}

/** Writes the AG-UI events of one run: every start has its end, one terminal event last. */
export class AgUiWriter {
  readonly out: AgUiEvent[] = [];
  private readonly prefix = streamPrefix();
  private started = false;
  private runId: string | undefined;
  private text: string | undefined;
  private textCount = 0;
  private step: string | undefined;
  /** Calls started (`TOOL_CALL_START`) and not ended. */
  private readonly open = new Set<string>();
  /** Calls started in this run (ended or not). */
  private readonly calls = new Set<string>();
  private readonly answered = new Set<string>();
  private failedText: string | undefined;

  constructor(private readonly options: AgUiStreamOptions) {
    this.redact = new StreamRedactor(options.secrets ?? []);
  }

  /** Scrubs payload (never the event's own fields) and makes it plain JSON. */
  private readonly redact: StreamRedactor;

  private emit(event: AgUiEvent): void {
    const call = (event as { toolCallId?: unknown }).toolCallId;
    this.out.push(typeof call === 'string' ? ({ ...event, toolCallId: this.redact.callId(call) } as AgUiEvent) : event);
  }

  /** Shows model text (already scrubbed), starting a text message when there is something to show. */
  private textDelta(delta: string): void {
    if (delta === '') return;
    if (this.text === undefined) {
      this.text = `${this.prefix}-text-${this.textCount++}`;
      this.emit({ type: 'TEXT_MESSAGE_START', messageId: this.text, role: 'assistant' });
    }
    this.emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.text, delta });
  }

  private thread(): string {
    return this.options.threadId ?? this.runId ?? '';
  }

  private start(runId: string): void {
    if (this.started) return;
    this.started = true;
    this.runId = runId;
    this.emit({ type: 'RUN_STARTED', threadId: this.thread(), runId });
  }

  private closeText(): void {
    this.textDelta(this.redact.endText());
    if (this.text === undefined) return;
    this.emit({ type: 'TEXT_MESSAGE_END', messageId: this.text });
    this.text = undefined;
  }

  /**
   * Ends the calls still open at a step's end: their arguments never became a call (the model
   * stopped or failed inside them). Each ends without arguments and is answered with the error.
   */
  private closeCalls(): void {
    for (const id of [...this.open])
      this.result(id, '', 'Not run: the call was cut off before its arguments were complete.');
    this.open.clear();
  }

  private closeStep(): void {
    this.closeText();
    this.closeCalls();
    if (this.step !== undefined) this.emit({ type: 'STEP_FINISHED', stepName: this.step });
    this.step = undefined;
  }

  private startCall(callId: string, toolName: string): void {
    if (this.calls.has(callId)) return;
    this.closeText();
    this.emit({ type: 'TOOL_CALL_START', toolCallId: callId, toolCallName: toolName });
    this.open.add(callId);
    this.calls.add(callId);
  }

  /**
   * A call's whole arguments (as the run shows them, redacted), then its end. Argument text is
   * never streamed piece by piece: a call cut off inside its arguments would leave pieces that do
   * not join to JSON; every ended call's arguments are one valid JSON text, or none.
   */
  private endCall(callId: string, toolName: string, input: unknown): void {
    this.startCall(callId, toolName);
    if (!this.open.has(callId)) return;
    if (input !== undefined)
      this.emit({ type: 'TOOL_CALL_ARGS', toolCallId: callId, delta: JSON.stringify(this.redact.payload(input)) });
    this.emit({ type: 'TOOL_CALL_END', toolCallId: callId });
    this.open.delete(callId);
  }

  private result(callId: string, toolName: string, content: string): void {
    if (this.answered.has(callId)) return;
    this.endCall(callId, toolName, undefined);
    this.answered.add(callId);
    this.emit({
      type: 'TOOL_CALL_RESULT',
      messageId: `${this.prefix}-result-${this.redact.callId(callId)}`,
      toolCallId: callId,
      content: this.redact.text(content),
      role: 'tool',
    });
  }

  event(event: AgentEvent): void {
    if (event.type === 'run_started') {
      this.start(event.runId);
      return;
    }
    if (!this.started) this.start(randomId());
    switch (event.type) {
      case 'turn_started':
        this.closeStep();
        this.step = `turn-${event.turn}`;
        this.emit({ type: 'STEP_STARTED', stepName: this.step });
        return;
      case 'turn_completed':
        this.closeStep();
        return;
      case 'model_started':
      case 'model_completed':
        this.closeText();
        return;
      case 'model_delta':
        if (event.delta === '') return;
        this.textDelta(this.redact.feedText(event.delta));
        return;
      case 'tool_call_delta':
        // The call shows as started; its arguments follow whole when it is admitted (see `endCall`).
        if (this.calls.has(event.callId)) return;
        this.startCall(event.callId, event.toolName);
        return;
      case 'tool_started':
        this.endCall(event.callId, event.toolName, event.input);
        return;
      case 'tool_completed':
        this.result(event.callId, event.toolName, event.error ?? event.output ?? '');
        return;
      case 'tool_failed':
        this.result(event.callId, event.toolName, event.error);
        return;
      case 'tool_denied':
        this.result(event.callId, event.toolName, event.message);
        return;
      case 'unknown_tool_call':
        if (event.recovery === 'tool_error')
          this.result(event.callId, this.redact.text(event.requestedName), `Unknown tool "${event.requestedName}".`);
        return;
      case 'invalid_tool_args':
        if (event.recovery === 'tool_error') this.result(event.callId, event.toolName, event.error);
        return;
      case 'tool_call_refused':
        this.result(event.callId, event.toolName, `Not run: the model turn ended with "${event.reason}".`);
        return;
      case 'tool_progress':
        this.emit({
          type: 'CUSTOM',
          name: 'tool_progress',
          value: {
            toolCallId: event.callId,
            message: this.redact.text(event.message),
            ...(event.fraction === undefined ? {} : { fraction: event.fraction }),
            ...(event.partial === undefined ? {} : { partial: this.redact.payload(event.partial) }),
          },
        });
        return;
      case 'custom':
        this.emit({
          type: 'CUSTOM',
          name: 'tool_event',
          value: {
            toolCallId: event.callId === undefined ? null : this.redact.callId(event.callId),
            payload: this.redact.payload(event.payload),
          },
        });
        return;
      case 'run_failed':
        this.failedText = event.error;
        return;
      default:
        return;
    }
  }

  async end(end: RunEnd): Promise<void> {
    if (end.type === 'run_end') {
      const run = end.run;
      if (!this.started) this.start(run.runId);
      const issued = await issueApprovals(run, this.options.approvalStore, undefined, this.options.threadId);
      const interrupts: AgUiInterrupt[] = [];
      if (run.outcome === 'deferred') {
        for (const call of [...run.deferred.approvals, ...run.deferred.calls])
          this.endCall(call.callId, call.toolName, displayArguments(this.options.tools, call.toolName, call.arguments));
        for (const approval of issued) {
          const call = run.deferred.approvals.find((candidate) => candidate.callId === approval.toolCallId);
          interrupts.push({
            id: approval.approvalId,
            reason: 'tool_approval',
            message: `Approve the call to ${call?.toolName ?? 'a tool'}?`,
            toolCallId: this.redact.callId(approval.toolCallId),
            metadata: {
              toolName: call?.toolName,
              arguments: this.redact.payload(
                displayArguments(this.options.tools, call?.toolName ?? '', call?.arguments),
              ),
            },
          });
        }
      }
      if (run.stateUpdates.length > 0)
        this.emit({ type: 'STATE_SNAPSHOT', snapshot: { stateUpdates: this.redact.payload(run.stateUpdates) } });
      this.closeStep();
      const usage = usageOf(run);
      const external = run.outcome === 'deferred' ? run.deferred.calls.map((call) => call.callId) : [];
      this.emit({
        type: 'RUN_FINISHED',
        threadId: this.thread(),
        runId: run.runId,
        ...(run.outcome === 'deferred'
          ? interrupts.length > 0
            ? { outcome: { type: 'interrupt', interrupts } }
            : { outcome: { type: 'success', pendingToolCallIds: external } }
          : { result: this.redact.text(run.text), outcome: { type: 'success' } }),
        ...(usage.length > 0 ? { usage } : {}),
      });
      return;
    }
    if (!this.started) this.start(randomId());
    this.closeStep();
    if (isCancellation(end.error)) {
      this.emit({
        type: 'RUN_FINISHED',
        threadId: this.thread(),
        runId: this.runId ?? '',
        outcome: { type: 'cancelled' },
      });
      return;
    }
    reportError(this.options.onError, end.error);
    const describe = this.options.errorText ?? describeRunError;
    const kind = (end.error as { kind?: unknown } | null)?.kind;
    this.emit({
      type: 'RUN_ERROR',
      message: this.redact.text(describe(end.error, this.failedText)),
      ...(typeof kind === 'string' ? { code: kind } : {}),
    });
  }
}
