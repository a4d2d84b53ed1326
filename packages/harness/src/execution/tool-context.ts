import type { JsonValue, ToolExecutionContext, ToolProgress, ToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';

/**
 * The per-call abort signal, created only if the tool reads `context.signal` (most tools never
 * do, and an `AbortController` per call is a measurable share of loop overhead). Aborting before
 * the signal exists records the reason, so a late reader still sees an aborted signal.
 * @internal
 */
export class LazyCallSignal {
  private controller: AbortController | undefined;
  private reason: unknown;
  private aborted = false;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

interface CallContextOptions {
  readonly callId: string;
  /** Computes the call's idempotency key on first read (hashing costs more than most calls). */
  readonly idempotencyKey: () => string;
  readonly signal: LazyCallSignal;
  readonly depth: number;
  readonly preferMarkdown: boolean;
  readonly isRunning: () => boolean;
  readonly callTool: (parentId: string, depth: number, name: string, args: unknown) => Promise<ToolResult>;
}

/**
 * The context a tool sees for one call: run and call ids, the call's signal (run cancellation and
 * the tool's own deadline), host state and store, `custom` events and progress (only while the
 * call runs; fractions clamped to 0..1, NaN dropped), and `callTool` for nested calls
 * (ids `<callId>/<n>`). A class, so the per-call cost is one small object.
 * @internal
 */
class CallContext implements ToolExecutionContext {
  readonly callId: string;
  readonly depth: number;
  readonly preferMarkdown: boolean;
  readonly streaming = false;
  readonly approved: boolean;
  #idempotencyKey: string | undefined;
  readonly #loop: LoopState;
  readonly #options: CallContextOptions;

  constructor(state: LoopState, options: CallContextOptions) {
    this.#loop = state;
    this.#options = options;
    this.callId = options.callId;
    this.depth = options.depth;
    this.preferMarkdown = options.preferMarkdown;
    this.approved = state.approvedCalls.has(options.callId);
  }

  get idempotencyKey(): string {
    this.#idempotencyKey ??= this.#options.idempotencyKey();
    return this.#idempotencyKey;
  }

  get runId(): string {
    return this.#loop.runId;
  }
  get threadId(): string | undefined {
    return this.#loop.context.threadId;
  }
  get signal(): AbortSignal {
    return this.#options.signal.signal;
  }
  get workspace(): ToolExecutionContext['workspace'] {
    return this.#loop.context.workspace;
  }
  get store(): unknown {
    return this.#loop.context.store;
  }
  get state(): unknown {
    return this.#loop.context.state;
  }

  emit(payload: JsonValue): void {
    const sink = this.#loop.sink;
    if (sink.active) sink.emit({ type: 'custom', callId: this.callId, payload });
  }

  reportProgress(progress: ToolProgress): void {
    const sink = this.#loop.sink;
    if (!sink.active || !this.#options.isRunning()) return;
    const { fraction, ...rest } = progress;
    const clamped = fraction === undefined || Number.isNaN(fraction) ? undefined : Math.min(1, Math.max(0, fraction));
    sink.emit({
      type: 'tool_progress',
      callId: this.callId,
      ...rest,
      ...(clamped === undefined ? {} : { fraction: clamped }),
    });
  }

  readonly callTool = (name: string, args: unknown): Promise<ToolResult> =>
    this.#options.callTool(this.callId, this.depth, name, args);
}

/** The context for one call (see {@link CallContext}). @internal */
export function createCallContext(state: LoopState, options: CallContextOptions): ToolExecutionContext {
  return new CallContext(state, options);
}
