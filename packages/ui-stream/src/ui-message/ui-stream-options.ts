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
   * The conversation the run belongs to (`useChat`'s chat `id`; `handleChatRequest` sets it): a run
   * paused here is kept under it, and a new user turn in the conversation voids it.
   */
  readonly conversationId?: string | undefined;
  /**
   * `data-tool-progress` parts: `persistent` (default) keeps the latest report of each call in the
   * message (its `id` is the call id, so a report replaces the previous one); `transient` sends them
   * to `onData` only, never into the message.
   */
  readonly progress?: 'persistent' | 'transient' | undefined;
  /**
   * The text of the `error` chunk of a failed run. Default: the error's name, the
   * `ModelCallError.kind` in parentheses, then the message of the run's `run_failed` event (the
   * harness's redacted text); an error without one gets a fixed text, never its own message.
   */
  readonly errorText?: ((error: unknown, eventText: string | undefined) => string) | undefined;
  /**
   * Values that must never reach the client (host values, keys): replaced by `[redacted]` in the
   * payload of every chunk (text, tool inputs and outputs, progress and event data, error text;
   * never the chunk's own fields: types, ids, roles, a tool's own name), a number equal to one as
   * well, on top of the harness's own redaction. Values shorter than 6 characters are ignored. Model
   * text is scrubbed across deltas (its last characters wait for the next delta). The list is read
   * again when it grows: `handleChatRequest` passes the values of `context.hostValues` and adds the
   * sensitive argument values of each call the model makes in the run.
   */
  readonly secrets?: readonly string[] | undefined;
  /**
   * Called with every error the stream ends with or reports (the run's failure, an approval store
   * that threw while keeping a paused run): log it. The client only sees the error's name and the
   * harness's redacted text, or a fixed text for errors the run did not describe.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
}
