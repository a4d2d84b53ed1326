import type { JsonValue } from '@tiny/tools';

/** Why the assistant message ended, in the AI SDK's words (`FinishReason` of `ai@6`). */
export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** The metadata the `finish` chunk carries: the run's id, outcome and summed token usage. */
export interface UIRunMetadata {
  readonly runId: string;
  /** The run's outcome (`final`, `deferred`, ...), or `failed` / `aborted`. */
  readonly outcome: string;
  readonly usage: {
    readonly inputTokens?: number | undefined;
    readonly outputTokens?: number | undefined;
    readonly totalTokens?: number | undefined;
    readonly reasoningTokens?: number | undefined;
    readonly cachedInputTokens?: number | undefined;
  };
}

/**
 * A data part of the stream. `data-tool-progress` carries a tool's `ToolProgress` (`id` is the call
 * id, so each report replaces the last one of that call in the message); `data-tool-event` what a
 * tool emitted (`context.emit`); `data-tool-input-redacted` says a call's arguments hold sensitive
 * fields, so their text was not streamed and the input shows `[redacted]` in their place.
 */
export type UIDataChunk =
  | {
      readonly type: 'data-tool-progress';
      readonly id: string;
      readonly data: {
        readonly toolCallId: string;
        readonly message: string;
        readonly fraction?: number | undefined;
        readonly partial?: JsonValue | undefined;
      };
      readonly transient?: boolean | undefined;
    }
  | {
      readonly type: 'data-tool-event';
      readonly id?: string | undefined;
      readonly data: { readonly toolCallId?: string | undefined; readonly payload: JsonValue };
    }
  | {
      readonly type: 'data-tool-input-redacted';
      readonly id: string;
      readonly data: { readonly toolCallId: string; readonly toolName: string };
    };

/**
 * One chunk of the AI SDK 6 UI message stream (the chunks of `ai@6`'s `UIMessageChunk` this
 * package writes; every one of them is an `ai` `UIMessageChunk`, checked by a type test). Written
 * as `data: <json>\n\n` server-sent events by {@link toUIMessageStreamResponse}.
 */
export type UIMessageChunk =
  | { readonly type: 'start'; readonly messageId?: string | undefined; readonly messageMetadata?: unknown }
  | { readonly type: 'start-step' }
  | { readonly type: 'finish-step' }
  | { readonly type: 'text-start'; readonly id: string }
  | { readonly type: 'text-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'text-end'; readonly id: string }
  | { readonly type: 'reasoning-start'; readonly id: string }
  | { readonly type: 'reasoning-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'reasoning-end'; readonly id: string }
  | { readonly type: 'tool-input-start'; readonly toolCallId: string; readonly toolName: string }
  | { readonly type: 'tool-input-delta'; readonly toolCallId: string; readonly inputTextDelta: string }
  | {
      readonly type: 'tool-input-available';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | {
      readonly type: 'tool-input-error';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly errorText: string;
    }
  | { readonly type: 'tool-approval-request'; readonly approvalId: string; readonly toolCallId: string }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }
  | UIDataChunk
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'abort'; readonly reason?: string | undefined }
  | {
      readonly type: 'finish';
      readonly finishReason?: UIFinishReason | undefined;
      readonly messageMetadata?: UIRunMetadata | undefined;
    };
