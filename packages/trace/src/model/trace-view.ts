/** How event times were known: recorded per event, from tool timestamps only, or not at all (event order). */
export type TimingSource = 'recorded' | 'tools' | 'none';

/** How a tool call ended. */
export type ToolCallStatus = 'ok' | 'error' | 'failed' | 'deferred' | 'running';

/** A recovered model mistake on a call: an unknown tool or arguments that failed the schema. */
export interface RecoveryView {
  readonly kind: 'unknown_tool' | 'invalid_args';
  /** `tool_error`, `repaired`, `normalized`, `rewrite:<tool>`. */
  readonly recovery: string;
  readonly requestedName?: string | undefined;
  readonly arguments: unknown;
  readonly detail?: string | undefined;
}

/** One tool call as the viewer shows it. @internal */
export interface ToolCallView {
  readonly index: number;
  readonly callId: string;
  toolName: string;
  readonly parentCallId: string | undefined;
  readonly turn: number;
  start: number;
  end: number | undefined;
  durationMs: number | undefined;
  status: ToolCallStatus;
  input: unknown;
  hasInput: boolean;
  output: string | undefined;
  error: string | undefined;
  outputBytes: number | undefined;
  recovery: RecoveryView | undefined;
  deferredReason: string | undefined;
  approved: boolean;
  denied: string | undefined;
  readonly notes: string[];
  readonly children: ToolCallView[];
  lane: number;
}

/** One model call. @internal */
export interface ModelCallView {
  readonly index: number;
  readonly modelCallId: string;
  readonly turn: number;
  readonly start: number;
  end: number | undefined;
  finishReason: string | undefined;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  toolCallCount: number | undefined;
  readonly retries: { readonly attempt: number; readonly error: string }[];
  dropped: number;
  /** Calls of this turn that were not run because the turn was broken (`tool_call_refused`). */
  refused: { readonly callId: string; readonly toolName: string; readonly reason: string }[];
  text: string;
}

/** A run-level happening worth a line: limits, controls, filters, output retries, failures. @internal */
export interface NoteView {
  readonly tone: 'info' | 'warn' | 'error';
  readonly label: string;
  readonly text: string;
}

/** One turn (turn 0 holds what happened before the first turn, such as resumed approvals). @internal */
export interface TurnView {
  readonly turn: number;
  start: number;
  end: number;
  readonly models: ModelCallView[];
  /** Every call of the turn, nested ones included, in start order. */
  readonly tools: ToolCallView[];
  /** Calls without a parent in this turn. */
  readonly roots: ToolCallView[];
  lanes: number;
  readonly notes: NoteView[];
}

/** Everything the page shows. @internal */
export interface TraceView {
  readonly runId: string | undefined;
  readonly outcome: string | undefined;
  readonly failure: string | undefined;
  readonly finalText: string | undefined;
  readonly timing: TimingSource;
  readonly start: number;
  readonly end: number;
  readonly turns: readonly TurnView[];
  readonly notes: readonly NoteView[];
  readonly totals: {
    readonly turns: number;
    readonly modelCalls: number;
    readonly toolCalls: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly recoveries: number;
    readonly deferrals: number;
    readonly failures: number;
    readonly retries: number;
  };
}
