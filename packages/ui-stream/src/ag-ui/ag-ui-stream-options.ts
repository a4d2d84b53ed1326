import type { ApprovalStateStore } from '../chat/approval-store.js';
import type { ToolLookup } from '../run/tool-display.js';

/** Options for `toAgUiEvents` and `toAgUiResponse`. */
export interface AgUiStreamOptions {
  /** The AG-UI thread id; defaults to the run id. */
  readonly threadId?: string | undefined;
  /** As `UIStreamOptions.tools`: how paused calls' arguments are redacted (fail closed without it). */
  readonly tools?: ToolLookup | undefined;
  /** Keeps a run paused for approval, keyed by the interrupt ids (as `UIStreamOptions.approvalStore`). */
  readonly approvalStore?: ApprovalStateStore | undefined;
  /** The `RUN_ERROR` message; default as `UIStreamOptions.errorText`. */
  readonly errorText?: ((error: unknown, eventText: string | undefined) => string) | undefined;
  /** As `UIStreamOptions.secrets`: values replaced by `[redacted]` in every event. */
  readonly secrets?: readonly string[] | undefined;
}
