import type { ApprovalStateStore } from '../chat/approval-store.js';
import type { ToolLookup } from '../run/tool-display.js';

/** Options for `toUIMessageStream` and the response helpers. */
export interface UIStreamOptions {
  /** The assistant message id for the `start` chunk; give the last assistant message's id to continue it (a resume). */
  readonly messageId?: string | undefined;
  /**
   * For a resumed run (`streamResumeDeferred`) continuing `messageId`: the decided calls, whose tool
   * parts are already in that message. Their outputs (or `tool-output-denied`) update those parts
   * instead of opening new ones. `handleChatRequest` sets it.
   */
  readonly continuedToolCallIds?: readonly string[] | undefined;
  /**
   * The run's tools (the harness, a tool list, or a lookup by name): paused calls' arguments are
   * shown through `redactToolArguments`, and argument text of tools with sensitive fields is never
   * streamed. Without it a paused call's input reads `[redacted]` whole (fail closed).
   */
  readonly tools?: ToolLookup | undefined;
  /**
   * Where a run that pauses for approval is kept until the client answers (see `handleChatRequest`).
   * Without one, approval requests are still streamed, but nothing can resume them from the client.
   */
  readonly approvalStore?: ApprovalStateStore | undefined;
  /**
   * `data-tool-progress` parts: `persistent` (default) keeps the latest report of each call in the
   * message (its `id` is the call id, so a report replaces the previous one); `transient` sends them
   * to `onData` only, never into the message.
   */
  readonly progress?: 'persistent' | 'transient' | undefined;
  /**
   * The text of the `error` chunk of a failed run. Default: the error's name, the
   * `ModelCallError.kind` in parentheses, then the message of the run's `run_failed` event.
   */
  readonly errorText?: ((error: unknown, eventText: string | undefined) => string) | undefined;
  /**
   * Values that must never reach the client (host values, keys): replaced by `[redacted]` in every
   * chunk, on top of the harness's own redaction. Strings shorter than 6 characters are ignored; a
   * value split across two text deltas is not caught. `handleChatRequest` passes the string values
   * of `context.hostValues`.
   */
  readonly secrets?: readonly string[] | undefined;
}
