/** Token counts of a run, as AG-UI's `TokenUsage`. */
export interface AgUiTokenUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
  readonly reasoningTokens?: number;
  readonly cachedInputTokens?: number;
}

/** Something a paused run waits for (AG-UI's `Interrupt`): here, a tool call's approval. */
export interface AgUiInterrupt {
  /** The approval id; a resume entry answers it by this id. */
  readonly id: string;
  /** `tool_approval` (a call waiting for a human), or `external` (a call the host runs). */
  readonly reason: string;
  readonly message?: string;
  readonly toolCallId?: string;
  /** `{ toolName, arguments }`, the arguments `[redacted]` where sensitive. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * One AG-UI event (the `@ag-ui/core` 1.0 protocol) this package writes. Every one is a valid
 * `@ag-ui/core` `Event` (checked in tests with its `EventSchemas`).
 */
export type AgUiEvent =
  | { readonly type: 'RUN_STARTED'; readonly threadId: string; readonly runId: string }
  | {
      readonly type: 'RUN_FINISHED';
      readonly threadId: string;
      readonly runId: string;
      readonly result?: unknown;
      readonly outcome?:
        | { readonly type: 'success'; readonly pendingToolCallIds?: readonly string[] }
        | { readonly type: 'interrupt'; readonly interrupts: readonly AgUiInterrupt[] }
        | { readonly type: 'cancelled' };
      readonly usage?: readonly AgUiTokenUsage[];
    }
  | { readonly type: 'RUN_ERROR'; readonly message: string; readonly code?: string }
  | { readonly type: 'STEP_STARTED'; readonly stepName: string }
  | { readonly type: 'STEP_FINISHED'; readonly stepName: string }
  | { readonly type: 'TEXT_MESSAGE_START'; readonly messageId: string; readonly role: 'assistant' }
  | { readonly type: 'TEXT_MESSAGE_CONTENT'; readonly messageId: string; readonly delta: string }
  | { readonly type: 'TEXT_MESSAGE_END'; readonly messageId: string }
  | {
      readonly type: 'TOOL_CALL_START';
      readonly toolCallId: string;
      readonly toolCallName: string;
      readonly parentMessageId?: string;
    }
  | { readonly type: 'TOOL_CALL_ARGS'; readonly toolCallId: string; readonly delta: string }
  | { readonly type: 'TOOL_CALL_END'; readonly toolCallId: string }
  | {
      readonly type: 'TOOL_CALL_RESULT';
      readonly messageId: string;
      readonly toolCallId: string;
      readonly content: string;
      readonly role: 'tool';
    }
  | { readonly type: 'STATE_SNAPSHOT'; readonly snapshot: unknown }
  | { readonly type: 'CUSTOM'; readonly name: string; readonly value: unknown };
