import type { ToolResult } from '../result/tool-result.js';
import type { JsonValue } from '../validation/json-schema.js';

/** The workspace a run operates in, as the host describes it. */
export interface WorkspaceDescriptor {
  /** Absolute root the run may touch. */
  readonly root: string;
  /** Whether the host runs tools inside a sandbox. */
  readonly sandboxed: boolean;
}

/** A progress report from a running tool. `fraction` is clamped to 0..1; NaN is dropped. */
export interface ToolProgress {
  readonly message: string;
  readonly fraction?: number;
  readonly partial?: JsonValue;
}

/**
 * What a tool sees while it runs, besides its arguments. The harness creates one per call;
 * {@link createToolExecutionContext} makes one for running a tool on its own.
 */
export interface ToolExecutionContext {
  /** The id of the call being executed (the admitted id, not anything the tool returns). */
  readonly callId: string;
  readonly runId: string;
  readonly threadId?: string | undefined;
  /** 0 for calls made by the model; +1 for each level of nested calls. */
  readonly depth: number;
  /** Aborted on cancellation or when the call's deadline passes. */
  readonly signal: AbortSignal;
  /** Whether the tool should prefer its markdown rendering. */
  readonly preferMarkdown: boolean;
  /** Whether the run is streaming to a consumer. */
  readonly streaming: boolean;
  /** Whether a human approved this call (set on resume after an approval). */
  readonly approved: boolean;
  /** A stable key for this effect, to pass to downstream APIs that deduplicate (set when a ledger runs). */
  readonly idempotencyKey?: string | undefined;
  readonly maxTurnOutputTokens?: number | undefined;
  readonly workspace?: WorkspaceDescriptor | undefined;
  /** Host state shared with tools (opaque to this package). */
  readonly state?: unknown;
  /** A host store handle shared with tools (opaque to this package); inherited by nested calls. */
  readonly store?: unknown;
  /**
   * Calls another tool from inside this one (one of this tool's `nestedTools`, else a registered
   * one), through the same admission rules. The nested call's id is `<this call id>/<n>`.
   * Absent outside the harness.
   */
  readonly callTool?: ((name: string, args: unknown) => Promise<ToolResult>) | undefined;
  /** Emits a `custom` event carrying `payload` and this call's id. */
  emit(payload: JsonValue): void;
  /** Reports progress between the call's start and its end. */
  reportProgress(progress: ToolProgress): void;
}

/**
 * A context for running a tool outside the harness. Events and progress go to the optional
 * callbacks; the signal never aborts unless one is given.
 */
export function createToolExecutionContext(
  options: Partial<Omit<ToolExecutionContext, 'emit' | 'reportProgress'>> & {
    onEvent?: (payload: JsonValue) => void;
    onProgress?: (progress: ToolProgress) => void;
  } = {},
): ToolExecutionContext {
  const { onEvent, onProgress, ...fields } = options;
  return {
    callId: fields.callId ?? globalThis.crypto.randomUUID(),
    runId: 'standalone',
    depth: 0,
    signal: new AbortController().signal,
    preferMarkdown: false,
    streaming: false,
    approved: false,
    ...fields,
    emit: (payload) => onEvent?.(payload),
    reportProgress: (progress) => {
      if (!onProgress) return;
      const fraction = progress.fraction;
      if (fraction === undefined || Number.isNaN(fraction)) {
        const { fraction: _dropped, ...rest } = progress;
        onProgress(rest);
      } else {
        onProgress({ ...progress, fraction: Math.min(1, Math.max(0, fraction)) });
      }
    },
  };
}
