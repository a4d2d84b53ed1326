import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.NestedCallRefusedError');

/**
 * Why a nested call was refused: its calling tool's call had ended (returned, failed, timed out or
 * was aborted: `parent_ended`), the run had ended (`run_ended`), or the signal the calling tool
 * passed to this `callTool` (`callTool(name, args, { signal })`) aborted (`signal_aborted`).
 */
export type NestedCallRefusal = 'parent_ended' | 'run_ended' | 'signal_aborted';

/**
 * A `context.callTool` that cannot run: the calling tool's call (`parentCallId`) or the run ended
 * before the nested call was made or before its admission (hooks, asynchronous validation)
 * finished. The tool never ran and no event was emitted for it; `cause` is the parent call's abort
 * reason when there is one (a `ToolTimeoutError` for a parent that timed out). With `started`, the
 * nested tool had started and its calling call ended while it ran: its signal was aborted, its
 * output is no longer awaited, and its `tool_failed` event carries this error.
 */
export class NestedCallRefusedError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly parentCallId: string;
  readonly refusal: NestedCallRefusal;
  /** Whether the nested tool had started (it was aborted while it ran, rather than refused). */
  readonly started: boolean;

  constructor(options: {
    toolName: string;
    parentCallId: string;
    refusal: NestedCallRefusal;
    started?: boolean;
    cause?: unknown;
  }) {
    const why =
      options.refusal === 'run_ended'
        ? 'the run ended'
        : options.refusal === 'signal_aborted'
          ? 'the signal passed to callTool aborted'
          : `the calling tool's call \`${options.parentCallId}\` ended`;
    const what = options.started ? 'aborted' : 'refused';
    super('NestedCallRefusedError', `nested call to "${options.toolName}" ${what}: ${why}`, options);
    this.toolName = options.toolName;
    this.parentCallId = options.parentCallId;
    this.refusal = options.refusal;
    this.started = options.started ?? false;
  }

  static override isInstance(value: unknown): value is NestedCallRefusedError {
    return isMarked(value, marker);
  }
}
