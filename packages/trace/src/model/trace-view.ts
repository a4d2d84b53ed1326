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
  /** The tool format the model wrote the call in (`json`, `xml`, `ptype`) and the grammar it was read with, when known. */
  format: string | undefined;
  grammar: string | undefined;
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
  /** Input tokens the provider read from its prompt cache, when it said. */
  cachedInputTokens: number | undefined;
  /**
   * The request's prompt prefix did not extend the previous one (`prompt_prefix_changed`): what
   * changed (`tool search changed`, `system changed`, `history rewritten at message 3`) and the
   * estimated cached tokens lost. Marked on the timeline.
   */
  prefixBreak: { readonly changes: readonly string[]; readonly lostTokens: number } | undefined;
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

/**
 * One turn of a run. `turn` counts across the run's resumes (a resumed run goes on from the turn it
 * paused in, as the console does). Turn 0 holds calls made before a fresh run's first turn; a
 * `resumed` turn holds the decided calls a resume ran before its first model call, and carries the
 * number of the turn that paused. Only turns where something happened exist. @internal
 */
export interface TurnView {
  readonly turn: number;
  /** The run this turn belongs to (`undefined` for events before any `run_started`). */
  readonly runId: string | undefined;
  /** True for the decided calls a resume ran before its first turn. */
  readonly resumed: boolean;
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

/** How one stretch of a run (its first start, or a resume) ended. @internal */
export interface RunPartView {
  readonly resumed: boolean;
  outcome: string | undefined;
}

/**
 * One run: every event between its `run_started` and its end, with its resumes (same run id)
 * folded in, so a paused and resumed run reads as one run. @internal
 */
export interface RunView {
  readonly runId: string | undefined;
  /** How the run ended (its last part's outcome), `failed` when it threw. */
  outcome: string | undefined;
  /** Why, when the outcome alone does not say it (a middleware control that stopped the run). */
  reason: string | undefined;
  failure: string | undefined;
  finalText: string | undefined;
  start: number;
  end: number;
  readonly parts: RunPartView[];
  readonly turns: TurnView[];
  readonly notes: NoteView[];
  readonly totals: {
    turns: number;
    modelCalls: number;
    toolCalls: number;
  };
}

/** Everything the page shows. @internal */
export interface TraceView {
  /** The runs in the order they started; most traces have one. */
  readonly runs: readonly RunView[];
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
