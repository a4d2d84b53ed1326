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
  /**
   * Called with every error the stream ends with or reports (the run's failure, an approval store
   * that threw while keeping a paused run): log it. The client only sees the error's name and the
   * harness's redacted text, or a fixed text for errors the run did not describe.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
}
